// The sidebar column on a wide screen; on a phone (≤ 760 px) a drawer that slides over the page from
// the left, opened by the menu button (the header's, or in a chat its title row's). Open, it is a modal
// dialog: it takes focus, Tab and Shift+Tab cycle inside it, and Escape or a tap on the backdrop closes
// it and gives focus back to the menu button; the Shell closes it on navigation. Closed, it is `visibility: hidden`, so nothing inside
// it can be tabbed to or read out.
import type { ComponentChildren, RefObject } from "preact";
import { useCallback, useEffect, useRef } from "preact/hooks";
import { tabbable, trapTab } from "../../lib/focus-trap";
import style from "./style.module.css";

type Props = {
  open: boolean;
  /** Whether a wide screen shows it as a column (home and chat) or not at all (the other pages). */
  column: boolean;
  onClose: () => void;
  menuButton: RefObject<HTMLButtonElement | null>;
  children: ComponentChildren;
};

export function Drawer({ open, column, onClose, menuButton, children }: Props) {
  const panel = useRef<HTMLDivElement>(null);
  // Escape and the backdrop give focus back to the menu button once the drawer has closed: the button
  // may be in the page (a chat's title row), which is inert until then.
  const refocus = useRef(false);
  const close = useCallback(() => {
    refocus.current = true;
    onClose();
  }, [onClose]);

  useEffect(() => {
    if (open || !refocus.current) return;
    refocus.current = false;
    menuButton.current?.focus();
  }, [open, menuButton]);

  useEffect(() => {
    if (!open) return;
    // Something inside may have taken the focus already (Ctrl+K puts it in search).
    if (panel.current && !panel.current.contains(document.activeElement)) tabbable(panel.current)[0]?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Tab" && panel.current) return trapTab(event, panel.current);
      if (event.key !== "Escape" || event.defaultPrevented) return;
      close();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, close]);

  return (
    <>
      <div
        ref={panel}
        id="drawer"
        class={style.drawer}
        {...(open ? { role: "dialog", "aria-modal": "true", "aria-label": "Conversations and pages" } : {})}
        data-open={open ? "true" : "false"}
        data-column={column ? "true" : "false"}
        data-testid="drawer"
      >
        {children}
      </div>
      {open && <div class={style.backdrop} aria-hidden="true" onClick={close} data-testid="drawer-backdrop" />}
    </>
  );
}
