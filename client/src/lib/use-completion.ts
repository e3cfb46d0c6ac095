// The composer's completion popup: which reference is being typed at the caret, the candidates for it,
// and the keys that drive the list (↑/↓ move, Enter/Tab insert, Esc closes). Lists are fetched the
// first time a sigil asks for them and cached for as long as the composer is mounted (one visit of
// the chat): use-completion-lists.ts.
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";
import { applyCandidate, type Candidate, type CompletionKind, findTrigger, type Trigger } from "./completion";
import { candidatesFor, useCompletionLists } from "./use-completion-lists";

export type CompletionState = {
  kind: CompletionKind;
  items: Candidate[];
  active: number;
};

type Options = {
  text: string;
  textarea: { current: HTMLTextAreaElement | null };
  setText: (text: string) => void;
};

/** Puts the caret at `pendingCaret` (after an inserted reference) once the new text is rendered. */
function useCaretAfterInsert(text: string, textarea: Options["textarea"], syncCaret: () => void) {
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = textarea.current;
    const at = pendingCaret.current;
    if (!el || at === null) return;
    pendingCaret.current = null;
    el.focus();
    el.setSelectionRange(at, at);
    syncCaret();
  }, [text, textarea, syncCaret]);

  return pendingCaret;
}

export function useCompletion({ text, textarea, setText }: Options) {
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [selection, setSelection] = useState({ key: "", index: 0 });

  const trigger: Trigger | null = caret === null ? null : findTrigger(text, Math.min(caret, text.length));
  const open = trigger !== null && trigger.start !== dismissedAt;

  /** Call whenever the caret may have moved: input, key up, click, focus. */
  const syncCaret = useCallback(() => {
    const el = textarea.current;
    if (!el) return;
    const collapsed = el.selectionStart === el.selectionEnd;
    setCaret(collapsed ? el.selectionStart : null);
    const next = collapsed ? findTrigger(el.value, el.selectionStart) : null;
    setDismissedAt((at) => (next && next.start === at ? at : null));
  }, [textarea]);

  const close = useCallback(() => setCaret(null), []);
  const pendingCaret = useCaretAfterInsert(text, textarea, syncCaret);

  // The lists, fetched once; `bump` re-renders when they arrive.
  const cache = useCompletionLists(open ? trigger.kind : null, open ? trigger.query : "");
  const items: Candidate[] = open ? candidatesFor(cache, trigger) : [];

  const key = open ? `${trigger.kind}:${trigger.start}:${trigger.query}` : "";
  const active = selection.key === key ? Math.min(selection.index, items.length - 1) : 0;

  const choose = useCallback(
    (index: number) => {
      const candidate = items[index];
      if (!trigger || !candidate) return;
      const next = applyCandidate(text, trigger, candidate);
      pendingCaret.current = next.caret;
      setText(next.text);
    },
    [items, trigger, text, setText],
  );

  /** True when the key was the popup's; the caller then does nothing else with it. */
  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!open || event.isComposing) return false;
    if (event.key === "Escape") {
      event.preventDefault();
      setDismissedAt(trigger.start);
      return true;
    }
    if (!items.length || event.altKey || event.ctrlKey || event.metaKey) return false;
    const move = (delta: number) => {
      event.preventDefault();
      setSelection({ key, index: (active + delta + items.length) % items.length });
      return true;
    };
    if (event.key === "ArrowDown") return move(1);
    if (event.key === "ArrowUp") return move(-1);
    if ((event.key === "Enter" && !event.shiftKey) || (event.key === "Tab" && !event.shiftKey)) {
      // Enter on a reference typed out in full sends the message, as it would without the popup.
      if (event.key === "Enter" && items[active]?.value === trigger.query && !items[active]?.folder) return false;
      event.preventDefault();
      choose(active);
      return true;
    }
    return false;
  };

  const state: CompletionState | null = open && items.length ? { kind: trigger.kind, items, active } : null;
  return {
    state,
    syncCaret,
    close,
    onKeyDown,
    choose,
    hover: (index: number) => setSelection({ key, index }),
  };
}
