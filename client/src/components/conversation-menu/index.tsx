// The conversation's "⋯" menu in the chat header: Share… (share-dialog/), Move to project… (move-dialog/),
// Export as Markdown, Export as JSON. The menu button pattern: the button says it opens a menu (aria-haspopup, aria-expanded); the
// menu takes the focus, arrow keys, Home and End move through its items, Esc or Tab closes it (Esc
// returns the focus to the button), and so does a click outside (those last as every popover:
// lib/use-popover.ts; use-menu-keys.ts). An export fetches every message first (client/src/lib/export.ts,
// loaded on first use). Closing the share dialog gives the focus back to the menu's button.
import type { RefObject } from "preact";
import { useId, useState } from "preact/hooks";
import { usePopover } from "../../lib/use-popover";
import { Icon } from "../../ui/icon";
import type { MoveDialog } from "../move-dialog";
import type { ShareDialog } from "../share-dialog";
import style from "./style.module.css";
import { useMenuKeys } from "./use-menu-keys";

type Format = "md" | "json";

const ITEMS: { format: Format; label: string }[] = [
  { format: "md", label: "Export as Markdown" },
  { format: "json", label: "Export as JSON" },
];

/** The share dialog, its module loaded on first use (it stays out of the first download). */
function useShareDialog(
  button: RefObject<HTMLButtonElement | null>,
  closeMenu: () => void,
  setProblem: (problem: string | null) => void,
) {
  const [Sharing, setSharing] = useState<typeof ShareDialog | null>(null);
  const openShare = async () => {
    closeMenu();
    setProblem(null);
    try {
      const { ShareDialog } = await import("../share-dialog");
      setSharing(() => ShareDialog);
    } catch {
      button.current?.focus();
      setProblem("Sharing could not be loaded. Reload the page and try again.");
    }
  };

  const closeShare = () => {
    setSharing(null);
    button.current?.focus();
  };

  return { Sharing, openShare, closeShare };
}

/** "Move to project…": its dialog loaded on first use, as the share dialog is. */
function useMoveDialog(button: RefObject<HTMLButtonElement | null>, closeMenu: () => void) {
  const [Moving, setMoving] = useState<typeof MoveDialog | null>(null);
  const openMove = async () => {
    closeMenu();
    const { MoveDialog } = await import("../move-dialog");
    setMoving(() => MoveDialog);
  };
  const closeMove = () => {
    setMoving(null);
    button.current?.focus();
  };
  return { Moving, openMove, closeMove };
}

export function ConversationMenu({ conversationId }: { conversationId: string }) {
  const { open, setOpen, toggle, button, panel: menu, onKeyDown: closeOnEscape } = usePopover();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const menuId = useId();

  const { onMenuKeyDown, onButtonKeyDown } = useMenuKeys({ open, setOpen, menu, closeOnEscape });

  const exportAs = async (format: Format) => {
    setOpen(false);
    button.current?.focus();
    setBusy(true);
    setProblem(null);
    // The export's module (lib/export.ts) is loaded on first use: it stays out of the first download.
    const failure = await import("../../lib/export")
      .then(({ exportConversation }) => exportConversation(conversationId, format))
      .catch(() => "it could not be loaded. Reload the page and try again");
    setBusy(false);
    if (failure) setProblem(`Export failed: ${failure}`);
  };

  const { Sharing, openShare, closeShare } = useShareDialog(button, () => setOpen(false), setProblem);
  const { Moving, openMove, closeMove } = useMoveDialog(button, () => setOpen(false));

  return (
    <div class={style.wrap}>
      <button
        type="button"
        ref={button}
        class={style.button}
        aria-label="Conversation actions"
        title="Conversation actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-busy={busy}
        disabled={busy}
        onClick={() => {
          setProblem(null);
          toggle();
        }}
        onKeyDown={onButtonKeyDown}
        data-testid="conversation-menu-button"
      >
        <Icon name="dots" size="1.1em" />
      </button>
      {open && (
        <div
          id={menuId}
          ref={menu}
          role="menu"
          aria-label="Conversation actions"
          class={style.menu}
          onKeyDown={onMenuKeyDown}
          data-testid="conversation-menu"
        >
          <MenuItems
            onShare={() => void openShare()}
            onMove={() => void openMove()}
            onExport={(format) => void exportAs(format)}
          />
        </div>
      )}
      {Sharing && <Sharing conversationId={conversationId} onClose={closeShare} />}
      {Moving && <Moving conversationId={conversationId} onClose={closeMove} />}
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Share…, Move to project… and the two exports, as menu items (the focus moves among them with the arrow keys). */
function MenuItems(props: { onShare: () => void; onMove: () => void; onExport: (format: Format) => void }) {
  const items = [
    { label: "Share…", testid: "share-conversation", run: props.onShare },
    { label: "Move to project…", testid: "move-to-project", run: props.onMove },
    ...ITEMS.map(({ format, label }) => ({ label, testid: `export-${format}`, run: () => props.onExport(format) })),
  ];
  return (
    <>
      {items.map(({ label, testid, run }) => (
        <button
          key={testid}
          type="button"
          role="menuitem"
          tabIndex={-1}
          class={style.item}
          onClick={run}
          data-testid={testid}
        >
          {label}
        </button>
      ))}
    </>
  );
}
