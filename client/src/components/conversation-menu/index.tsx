// The conversation's "⋯" menu in the chat header: Share… (share-dialog/), Export as Markdown, Export as
// JSON. The menu button pattern: the button says it opens a menu (aria-haspopup, aria-expanded); the
// menu takes the focus, arrow keys, Home and End move through its items, Esc or Tab closes it (Esc
// returns the focus to the button), and so does a click outside (those last as every popover:
// lib/use-popover.ts). An export fetches every message first (client/src/lib/export.ts). Closing the
// share dialog gives the focus back to the menu's button.
import { useEffect, useId, useState } from "preact/hooks";
import {
  type ConversationExport,
  conversationJson,
  conversationMarkdown,
  downloadText,
  exportFileName,
  loadConversationExport,
} from "../../lib/export";
import { usePopover } from "../../lib/use-popover";
import { Icon } from "../../ui/icon";
import type { ShareDialog } from "../share-dialog";
import style from "./style.module.css";

type Format = "md" | "json";

const ITEMS: { format: Format; label: string }[] = [
  { format: "md", label: "Export as Markdown" },
  { format: "json", label: "Export as JSON" },
];

function save(format: Format, data: ConversationExport): void {
  const name = exportFileName(data.conversation.title, format);
  if (format === "md") downloadText(name, "text/markdown;charset=utf-8", conversationMarkdown(data));
  else downloadText(name, "application/json;charset=utf-8", conversationJson(data));
}

export function ConversationMenu({ conversationId }: { conversationId: string }) {
  const { open, setOpen, toggle, button, panel: menu, onKeyDown: closeOnEscape } = usePopover();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The share dialog's module, loaded on first use (it stays out of the first download).
  const [Sharing, setSharing] = useState<typeof ShareDialog | null>(null);
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]") ?? [])];

  // Opening moves the focus to the first item.
  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const moveTo = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    if (event.key === "ArrowDown") moveTo(at + 1);
    else if (event.key === "ArrowUp") moveTo(at - 1);
    else if (event.key === "Home") moveTo(0);
    else if (event.key === "End") moveTo(all.length - 1);
    else if (event.key === "Tab") setOpen(false);
    else closeOnEscape(event); // and not also "stop the turn" in the chat
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
    }
  };

  const exportAs = async (format: Format) => {
    setOpen(false);
    button.current?.focus();
    setBusy(true);
    setProblem(null);
    // Markdown is for reading: the version on screen. JSON is a copy to keep: every version.
    const result = await loadConversationExport(conversationId, format === "md" ? "path" : "tree");
    setBusy(false);
    if (result.ok) save(format, result.data);
    else setProblem(`Export failed: ${result.error.message}`);
  };

  const openShare = async () => {
    setOpen(false);
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
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            class={style.item}
            onClick={() => void openShare()}
            data-testid="share-conversation"
          >
            Share…
          </button>
          {ITEMS.map(({ format, label }) => (
            <button
              key={format}
              type="button"
              role="menuitem"
              tabIndex={-1}
              class={style.item}
              onClick={() => void exportAs(format)}
              data-testid={`export-${format}`}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {Sharing && <Sharing conversationId={conversationId} onClose={closeShare} />}
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
