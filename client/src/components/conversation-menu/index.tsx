// The conversation's "⋯" menu in the chat header: Export as Markdown, Export as JSON. The menu button
// pattern: the button says it opens a menu (aria-haspopup, aria-expanded); the menu takes the focus,
// arrow keys, Home and End move through its items, Esc or Tab closes it (Esc returns the focus to the
// button), and so does a click outside. An export fetches every message first (client/src/lib/export.ts).
import { useEffect, useId, useRef, useState } from "preact/hooks";
import {
  type ConversationExport,
  conversationJson,
  conversationMarkdown,
  downloadText,
  exportFileName,
  loadConversationExport,
} from "../../lib/export";
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

function DotsIcon() {
  return (
    <svg width="1.1em" height="1.1em" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}

export function ConversationMenu({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]") ?? [])];
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  // Opening moves the focus to the first item; a click elsewhere closes the menu.
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!wrap.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
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
    else if (event.key === "Escape") {
      // Handled here, so the chat does not also read it as "stop the turn".
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === "Tab") close(false);
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
    }
  };

  const exportAs = async (format: Format) => {
    close(true);
    setBusy(true);
    setProblem(null);
    const result = await loadConversationExport(conversationId);
    setBusy(false);
    if (result.ok) save(format, result.data);
    else setProblem(`Export failed: ${result.error.message}`);
  };

  return (
    <div class={style.wrap} ref={wrap}>
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
          setOpen((was) => !was);
        }}
        onKeyDown={onButtonKeyDown}
        data-testid="conversation-menu-button"
      >
        <DotsIcon />
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
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
