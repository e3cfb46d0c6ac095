// The menu button pattern's keys (conversation menu): opening moves the focus to the first item; arrow
// keys, Home and End move through the items; Tab closes; Esc closes and returns the focus to the button
// (the popover's own onKeyDown, lib/use-popover.ts). Arrow keys on the button open the menu.
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

type Options = {
  open: boolean;
  setOpen: (open: boolean) => void;
  menu: RefObject<HTMLElement | null>;
  closeOnEscape: (event: KeyboardEvent) => void;
};

export function useMenuKeys({ open, setOpen, menu, closeOnEscape }: Options) {
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

  return { onMenuKeyDown, onButtonKeyDown };
}
