// The app's keyboard shortcuts, chosen not to fight the browser's (never Ctrl+N/T/W/L): Ctrl/⌘+Shift+O
// for a new chat (as ChatGPT), Ctrl/⌘+K to search the conversations, Ctrl/⌘+/ for this list (Settings →
// Help), and "/" to put the cursor in the message box. The ones with Ctrl/⌘ work while typing; "/" does
// not (it is a character then). SHORTCUTS is what Help lists; shortcutFor decides, useShortcuts listens.
import type { RefObject } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";

export type ShortcutAction = "new-chat" | "search" | "help" | "composer";

/** The keys of a shortcut as shown: "Mod" is Ctrl, or ⌘ on a Mac. */
export const SHORTCUTS: { action: ShortcutAction; keys: string[]; does: string }[] = [
  { action: "new-chat", keys: ["Mod", "Shift", "O"], does: "New chat" },
  { action: "search", keys: ["Mod", "K"], does: "Search conversations" },
  { action: "composer", keys: ["/"], does: "Write a message (when not already typing)" },
  { action: "help", keys: ["Mod", "/"], does: "Show these shortcuts" },
];

/** The other keys Help lists, which belong to one place rather than the whole app. */
export const PLACE_KEYS: { keys: string[]; does: string }[] = [
  { keys: ["Enter"], does: "Send the message (Shift+Enter for a new line)" },
  { keys: ["Esc"], does: "Stop the answer being written; cancel an edit; close the menu" },
];

export type KeyPress = Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">;

/** Which shortcut a key press is, if any; `typing` when the focus is in a text field. */
export function shortcutFor(event: KeyPress, typing: boolean): ShortcutAction | null {
  if (event.altKey) return null; // AltGr is Ctrl+Alt on Windows: a character, not a shortcut
  const mod = event.ctrlKey !== event.metaKey; // one of them, not both
  const letter = event.code.startsWith("Key") ? event.code.slice(3).toLowerCase() : event.key.toLowerCase();
  if (mod && event.shiftKey && letter === "o") return "new-chat";
  if (mod && !event.shiftKey && letter === "k") return "search";
  if (mod && !event.shiftKey && (event.key === "/" || event.code === "Slash")) return "help";
  if (!event.ctrlKey && !event.metaKey && event.key === "/" && !typing) return "composer";
  return null;
}

/** Whether the focus is somewhere keys type text (an input, a text area, an editable element). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(target.type);
}

/** A handler says whether it acted: false when the shortcut does not apply here (the key does what it would). */
type Handlers = Partial<Record<ShortcutAction, () => boolean>>;

/** Listens for the shortcuts on the whole document while mounted. */
export function useShortcuts(handlers: Handlers): void {
  const current = useRef(handlers);
  current.current = handlers;
  // Bound as the page is drawn (a layout effect), not after it: a key pressed the moment the page shows
  // is not lost. (A plain effect can run a frame or more later on a busy machine.)
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = shortcutFor(event, isTyping(event.target));
      const handle = action && current.current[action];
      if (!handle?.()) return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}

// Ctrl+K asks for the search box, which may not be on screen yet (a closed drawer, another page), and a
// page that opens may put the focus in its own message box a frame later (home does): for a moment the
// search box takes the focus back, once it can.
const SEARCH_FOCUS_MS = 500;
let searchWantedUntil = 0;
const searchListeners = new Set<() => void>();

export function requestSearchFocus(): void {
  searchWantedUntil = performance.now() + SEARCH_FOCUS_MS;
  for (const listener of searchListeners) listener();
}

/** Gives `input` the focus when requestSearchFocus asks, once it is shown, and keeps it for that moment. */
export function useSearchFocus(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    let frame = 0;
    const attempt = () => {
      cancelAnimationFrame(frame);
      const el = input.current;
      if (!el || performance.now() > searchWantedUntil) return;
      if (document.activeElement !== el) {
        el.focus();
        if (document.activeElement === el) el.select();
      }
      frame = requestAnimationFrame(attempt);
    };
    searchListeners.add(attempt);
    attempt();
    return () => {
      cancelAnimationFrame(frame);
      searchListeners.delete(attempt);
    };
  }, [input]);
}
