// A button that opens a small panel (the usage meter, the composer's options): open and closed, and
// closed again by Escape (which then stops nothing else, such as the running turn), by a click outside
// the button and panel, or by the caller. Focus goes back to the button when Escape closes it.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

export function usePopover<B extends HTMLElement = HTMLButtonElement, P extends HTMLElement = HTMLDivElement>() {
  const [open, setOpen] = useState(false);
  const button = useRef<B>(null);
  const panel = useRef<P>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && (button.current?.contains(target) || panel.current?.contains(target))) return;
      setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  /** For the panel's and the button's onKeyDown. */
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !open) return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    },
    [open],
  );

  const toggle = useCallback(() => setOpen((was) => !was), []);
  return { open, setOpen, toggle, button, panel, onKeyDown };
}
