// Keeping the keyboard inside a modal panel (the phone's drawer, the share dialog): Tab from its last
// element goes to its first, Shift+Tab from its first to its last.

const FOCUSABLE = "a[href], button:not(:disabled), input:not(:disabled), textarea:not(:disabled), select, [tabindex]";

/** What Tab can reach inside `root`, in order (shown, not inert, not tabindex=-1). */
export function tabbable(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && !el.closest("[inert]"),
  );
}

/** For a Tab keydown: keeps the focus inside `root`, wrapping at either end. */
export function trapTab(event: KeyboardEvent, root: HTMLElement): void {
  const items = tabbable(root);
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !root.contains(active);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}
