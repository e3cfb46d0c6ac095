// The sidebar column on a wide screen; on a phone (≤ 760 px) a drawer that slides over the page from
// the left, opened by the header's menu button. Open, it takes focus, and Escape or a tap on the
// backdrop closes it and gives focus back to the menu button; the Shell closes it on navigation.
// Closed, it is `visibility: hidden`, so nothing inside it can be tabbed to or read out.
import type { ComponentChildren, RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";
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

  useEffect(() => {
    if (!open) return;
    const first = panel.current?.querySelector<HTMLElement>("button:not(:disabled), a[href], input");
    first?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      onClose();
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, onClose, menuButton]);

  return (
    <>
      <div
        ref={panel}
        id="drawer"
        class={style.drawer}
        data-open={open ? "true" : "false"}
        data-column={column ? "true" : "false"}
        data-testid="drawer"
      >
        {children}
      </div>
      {open && (
        <div
          class={style.backdrop}
          aria-hidden="true"
          onClick={() => {
            onClose();
            menuButton.current?.focus();
          }}
          data-testid="drawer-backdrop"
        />
      )}
    </>
  );
}
