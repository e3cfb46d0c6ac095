// The app-wide keyboard shortcuts the Shell answers (lib/use-shortcuts.ts has the keys): a new chat, the
// conversation search, the composer and Help.
import { navigate } from "../../lib/router";
import { requestSearchFocus, useShortcuts } from "../../lib/use-shortcuts";

type Options = {
  /** Home, ready for a first message. */
  newChat: () => void;
  /** The page shows the conversations beside it on a wide screen. */
  withSidebar: boolean;
  openDrawer: () => void;
};

export function useShellShortcuts({ newChat, withSidebar, openDrawer }: Options) {
  useShortcuts({
    "new-chat": () => {
      newChat();
      return true;
    },
    search: () => {
      // On a phone the sidebar is the drawer, on every page; a wide screen shows it on home and the chats.
      if (matchMedia("(max-width: 760px)").matches) openDrawer();
      else if (!withSidebar) navigate("/");
      requestSearchFocus();
      return true;
    },
    composer: () => {
      const input = document.querySelector<HTMLElement>("#main [data-testid=composer-input]");
      input?.focus();
      return !!input;
    },
    help: () => {
      navigate("/settings/help");
      return true;
    },
  });
}
