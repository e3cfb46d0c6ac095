// The signed-in app: a skip link, the header, then the page: home (/) or a chat (/c/:id) beside the
// conversations (a column on a wide screen, a drawer on a phone; in a chat on a phone the chat's title
// row is the only header, holding the menu button and the demo badge), or Settings, the Library, Notes,
// Tasks or Schedules, loaded on first visit (routed-page.tsx) to keep the initial bundle small. The Shell
// also owns the tab title, a new chat (use-open-conversation.ts: home, until its first message makes
// the conversation), delete with Undo, and the app-wide keyboard shortcuts (use-shell-shortcuts.ts,
// lib/use-shortcuts.ts).
import type { ComponentChildren, RefObject } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Conversation, User } from "../../../../protocol";
import { navigate, type Route } from "../../lib/router";
import { syncTimeZone } from "../../lib/time-zone";
import { useConversations } from "../../lib/use-conversations";
import { useModelInView } from "../../lib/use-models";
import { Drawer } from "../../ui/drawer";
import { ConversationList } from "../conversation-list";
import { DemoBadge, Header, MenuButton } from "../header";
import { DrawerPages, returnToUndone, UndoToast } from "./drawer-parts";
import { RoutedPage } from "./routed-page";
import style from "./style.module.css";
import { startNewChat, useOpenConversation } from "./use-open-conversation";
import { useShellShortcuts } from "./use-shell-shortcuts";

type Props = { user: User; route: Route; onLogOut: () => void };

const PAGE_TITLES: Partial<Record<Route["name"], string>> = {
  settings: "Settings",
  library: "Library",
  notes: "Notes",
  tasks: "Tasks",
  schedules: "Schedules",
  project: "Project",
  admin: "Admin",
  not_found: "Not found",
};

/** One string per distinct page, so effects can run "on navigation". */
function routeKey(route: Route): string {
  switch (route.name) {
    case "conversation":
      return `c:${route.id}`;
    case "settings":
      return `settings:${route.tab}`;
    case "notes":
      return `notes:${route.path ?? ""}`;
    case "project":
      return `project:${route.id}`;
    default:
      return route.name;
  }
}

/** Moves focus to the page's main region (or the composer in it), as the skip link does. */
function skipToMain(event: MouseEvent) {
  event.preventDefault();
  const main = document.getElementById("main");
  const target = main?.querySelector<HTMLElement>("[data-testid=composer-input]") ?? main;
  target?.focus();
}

/** The tab's title: the open conversation's, or the page's. */
function useDocumentTitle(name: Route["name"], activeId: string | null, activeTitle: string | undefined) {
  useEffect(() => {
    const page = activeId ? activeTitle || "Conversation" : PAGE_TITLES[name];
    document.title = page ? `${page} · Oracle` : "Oracle";
  }, [name, activeId, activeTitle]);
}

/** Delete with Undo from the sidebar: deleting the open conversation goes home, and Undo goes back to it. */
function useDeleteWithUndo(list: ReturnType<typeof useConversations>, activeId: string | null) {
  /** The open conversation was the one deleted: Undo goes back to it. */
  const deletedOpen = useRef<string | null>(null);
  const onDelete = useCallback(
    (conversation: Conversation) => {
      list.scheduleDelete(conversation);
      deletedOpen.current = conversation.id === activeId ? conversation.id : null;
      if (conversation.id === activeId) navigate("/");
    },
    [list.scheduleDelete, activeId],
  );
  const onUndo = () => {
    const id = list.pendingDelete?.id;
    list.undoDelete();
    returnToUndone(id, deletedOpen.current);
  };
  return { onDelete, onUndo };
}

export function Shell({ user, route, onLogOut }: Props) {
  // The model the header names: the one the page in view answers with (lib/use-models.ts).
  const model = useModelInView();
  const list = useConversations();
  const { conversations, refresh, commitDelete } = list;
  const activeId = route.name === "conversation" ? route.id : null;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { open, creating, unsent, setUnsent } = useOpenConversation(list);
  const menuButton = useRef<HTMLButtonElement>(null);
  const key = routeKey(route);
  const activeTitle = activeId ? conversations?.find((c) => c.id === activeId)?.title : undefined;
  // The agent's `schedule` tool reads "Friday at 9" in the user's zone: the browser says which, once.
  useEffect(() => {
    void syncTimeZone();
  }, []);

  // Navigation closes the drawer (focus stays where the new page puts it, e.g. the chat's composer).
  // A message given back after a failed create belongs to that visit of home.
  useEffect(() => {
    setDrawerOpen(false);
    setUnsent(null);
  }, [key]);

  useDocumentTitle(route.name, activeId, activeTitle);

  // A conversation the list does not have yet (made in another tab, or through the API) is listed once
  // it is opened.
  const listed = conversations !== null;
  useEffect(() => {
    if (activeId && conversations && !conversations.some((c) => c.id === activeId)) void refresh();
  }, [activeId, listed]);

  const { onDelete, onUndo } = useDeleteWithUndo(list, activeId);

  // A turn starting names a new conversation (its first message) and one ending may rename or reorder
  // them; the index behind the list catches up a moment later, so ask again shortly after as well.
  const refreshSoon = useCallback(() => {
    void refresh();
    setTimeout(() => void refresh(), 1_500);
  }, [refresh]);

  const logOut = useCallback(() => {
    commitDelete(); // a pending delete is final once the user leaves
    onLogOut();
  }, [commitDelete, onLogOut]);

  const toggleDrawer = useCallback(() => setDrawerOpen((isOpen) => !isOpen), []);

  const withSidebar = route.name === "home" || route.name === "conversation" || route.name === "not_found";
  // Home with the drawer closed (already home, navigating does not close it).
  const newChat = useCallback(() => {
    setDrawerOpen(false);
    startNewChat();
  }, []);
  useShellShortcuts({ newChat, withSidebar, openDrawer: () => setDrawerOpen(true) });

  const undoToast = list.pendingDelete && (
    <UndoToast key={list.pendingDelete.id} title={list.pendingDelete.title} inDrawer={drawerOpen} onUndo={onUndo} />
  );

  // One menu button: in the header, or in a chat's title row (the one header row on a phone).
  const inChat = route.name === "conversation";
  const menu = <MenuButton open={drawerOpen} onClick={toggleDrawer} buttonRef={menuButton} />;
  const page = (
    <RoutedPage
      route={route}
      chat={{
        title: activeTitle,
        menu,
        badge: model?.demo && <DemoBadge testid="chat-demo-badge" />,
        onTurn: refreshSoon,
      }}
      home={{
        creating,
        onStart: (content, model, files) => void open(content, model, files),
        unsent: unsent ?? undefined,
      }}
      account={{ user, onLogOut: logOut }}
    />
  );

  return (
    <div class={style.shell} data-testid="shell" data-user={user.username}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to #main; the handler only keeps "#main" out of the URL */}
      <a href="#main" class={style.skip} onClick={skipToMain} data-testid="skip-link">
        {route.name === "conversation" ? "Skip to chat" : "Skip to content"}
      </a>
      <Header user={user} model={model} onLogOut={logOut} menu={inChat ? null : menu} hiddenOnPhone={inChat} />
      <ShellBody
        withSidebar={withSidebar}
        drawer={{ open: drawerOpen, close: () => setDrawerOpen(false), menuButton }}
        sidebar={
          <ConversationList
            conversations={conversations}
            activeId={activeId}
            error={list.error}
            onNew={newChat}
            onDelete={onDelete}
            onRename={list.rename}
            onPin={list.pin}
          />
        }
        pages={<DrawerPages user={user} onLogOut={logOut} />}
        undoToast={undoToast}
        page={page}
      />
    </div>
  );
}

type BodyProps = {
  withSidebar: boolean;
  drawer: { open: boolean; close: () => void; menuButton: RefObject<HTMLButtonElement | null> };
  sidebar: ComponentChildren;
  pages: ComponentChildren;
  undoToast: ComponentChildren;
  page: ComponentChildren;
};

/** The conversations (a column, or the drawer on a phone) beside the page's <main>; the undo toast in the
 * open drawer, else over the page. */
function ShellBody({ withSidebar, drawer, sidebar, pages, undoToast, page }: BodyProps) {
  return (
    <div class={style.body} data-sidebar={withSidebar ? "true" : "false"}>
      <Drawer open={drawer.open} column={withSidebar} onClose={drawer.close} menuButton={drawer.menuButton}>
        {sidebar}
        {pages}
        {drawer.open && undoToast}
      </Drawer>
      {/* While the drawer is open (a phone), the page behind it is out of reach (inert). */}
      <main id="main" class={style.main} tabIndex={-1} inert={drawer.open}>
        {page}
      </main>
      {!drawer.open && undoToast}
    </div>
  );
}
