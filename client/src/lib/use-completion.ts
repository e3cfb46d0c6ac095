// The composer's completion popup: which reference is being typed at the caret, the candidates for it,
// and the keys that drive the list (↑/↓ move, Enter/Tab insert, Esc closes). Lists are fetched the
// first time a sigil asks for them and cached for as long as the composer is mounted (one visit of
// the chat): knowledge and workflows once each, notes per prefix, and a prefix whose listing came back
// complete answers every longer prefix without asking the server again.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { z } from "zod";
import { LibraryEntryListSchema } from "../../../protocol/library";
import { MAX_LISTED_NOTES } from "../../../protocol/notes";
import { requestJson } from "./api";
import {
  applyCandidate,
  type Candidate,
  type CompletionKind,
  findTrigger,
  noteCandidates,
  rankCandidates,
  type Trigger,
} from "./completion";

const NOTES_DEBOUNCE_MS = 120;

const NoteListSchema = z.object({ notes: z.array(z.object({ path: z.string() })) });

type NoteListing = { paths: string[]; complete: boolean } | "loading";
type Cache = {
  knowledge?: Candidate[] | "loading";
  workflow?: Candidate[] | "loading";
  notes: Map<string, NoteListing>;
};

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

/** The longest loaded listing whose prefix the query extends, preferring a complete one. */
function bestListing(notes: Map<string, NoteListing>, query: string) {
  let best: { prefix: string; paths: string[]; complete: boolean } | undefined;
  for (const [prefix, listing] of notes) {
    if (listing === "loading" || !query.startsWith(prefix)) continue;
    if (
      !best ||
      (listing.complete && !best.complete) ||
      (listing.complete === best.complete && prefix.length > best.prefix.length)
    )
      best = { prefix, ...listing };
  }
  return best;
}

export function useCompletion({ text, textarea, setText }: Options) {
  const cache = useRef<Cache>({ notes: new Map() });
  const [, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [selection, setSelection] = useState({ key: "", index: 0 });
  const pendingCaret = useRef<number | null>(null);

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

  // Fetch what the open trigger needs, once.
  const kind = open ? trigger.kind : null;
  const query = open ? trigger.query : "";
  useEffect(() => {
    if (kind === "knowledge" || kind === "workflow") {
      const key = kind;
      if (cache.current[key]) return;
      cache.current[key] = "loading";
      const path = kind === "knowledge" ? "/api/knowledge" : "/api/workflows";
      void requestJson(path, LibraryEntryListSchema).then((result) => {
        cache.current[key] = result.ok ? result.data.entries.map((e) => ({ value: e.slug, detail: e.title })) : [];
        bump();
      });
      return;
    }
    if (kind !== "note") return;
    const notes = cache.current.notes;
    const covered = [...notes].some(
      ([prefix, listing]) => query.startsWith(prefix) && listing !== "loading" && listing.complete,
    );
    if (covered || notes.has(query)) return;
    const timer = setTimeout(() => {
      notes.set(query, "loading");
      const path = query ? `/api/notes?prefix=${encodeURIComponent(query)}` : "/api/notes";
      void requestJson(path, NoteListSchema).then((result) => {
        const paths = result.ok ? result.data.notes.map((n) => n.path) : [];
        // A refused prefix has no notes under it, now or for any longer prefix.
        notes.set(query, { paths, complete: !result.ok || paths.length < MAX_LISTED_NOTES });
        bump();
      });
    }, NOTES_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [kind, query, bump]);

  // Recomputed on every render: a few hundred candidates at most, and `bump` re-renders when lists arrive.
  let items: Candidate[] = [];
  if (open && trigger.kind === "note") {
    const listing = bestListing(cache.current.notes, trigger.query);
    const candidates = noteCandidates(listing?.paths ?? []).filter((c) => c.value !== trigger.query);
    // An incomplete listing only vouches for paths under the query, compared as the server compares them.
    items = listing?.complete
      ? rankCandidates(candidates, trigger.query)
      : rankCandidates(
          candidates.filter((c) => c.value.startsWith(trigger.query)),
          "",
        );
  } else if (open && trigger.kind !== "note") {
    const list = cache.current[trigger.kind];
    items = Array.isArray(list) ? rankCandidates(list, trigger.query) : [];
  }

  const key = open ? `${trigger.kind}:${trigger.start}:${trigger.query}` : "";
  const active = selection.key === key ? Math.min(selection.index, items.length - 1) : 0;

  // Put the caret after an inserted reference once the new text is rendered.
  useLayoutEffect(() => {
    const el = textarea.current;
    const at = pendingCaret.current;
    if (!el || at === null) return;
    pendingCaret.current = null;
    el.focus();
    el.setSelectionRange(at, at);
    syncCaret();
  }, [text, textarea, syncCaret]);

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
