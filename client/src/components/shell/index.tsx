// The signed-in app: a skip link, the header, then the page: home (/) or a chat (/c/:id) beside the
// conversations (a column on a wide screen, a drawer on a phone; in a chat on a phone the chat's title
// row is the only header, holding the menu button and the demo badge), or Settings, the Library, Notes or
// Tasks, which are loaded on first visit (lazyPage) to keep the initial bundle small. The Shell also
// owns the tab title, "New conversation" (reusing an empty one), delete with Undo, and the app-wide
// keyboard shortcuts (lib/use-shortcuts.ts).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Conversation, ModelRef, User } from "../../../../protocol";
import { queueFirstMessage } from "../../lib/outbox";
import { navigate, type Route } from "../../lib/router";
import { syncTimeZone } from "../../lib/time-zone";
import { useConversations } from "../../lib/use-conversations";
import { useHealth } from "../../lib/use-health";
import { requestSearchFocus, useShortcuts } from "../../lib/use-shortcuts";
import { Chat } from "../../pages/chat";
import { Home } from "../../pages/home";
import { Drawer } from "../../ui/drawer";
import { Link } from "../../ui/link";
import { ConversationList } from "../conversation-list";
import { DemoBadge, Header, MenuButton, PAGES } from "../header";
import { lazyPage } from "./lazy";
import style from "./style.module.css";

const Settings = lazyPage(() => import("../../pages/settings").then((m) => m.Settings));
const Library = lazyPage(() => import("../../pages/library").then((m) => m.Library));
const NotesPage = lazyPage(() => import("../../pages/notes").then((m) => m.NotesPage));
const TasksPage = lazyPage(() => import("../../pages/tasks").then((m) => m.TasksPage));
const SchedulesPage = lazyPage(() => import("../../pages/schedules").then((m) => m.SchedulesPage));

type Props = { user: User; route: Route; onLogOut: () => void };

const PAGE_TITLES: Partial<Record<Route["name"], string>> = {
  settings: "Settings",
  library: "Library",
  notes: "Notes",
  tasks: "Tasks",
  schedules: "Schedules",
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

export function Shell({ user, route, onLogOut }: Props) {
  const health = useHealth();
  const list = useConversations();
  const { conversations, refresh, create, chooseModel, commitDelete } = list;
  const activeId = route.name === "conversation" ? route.id : null;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [opened, setOpened] = useState(0);
  const [unsent, setUnsent] = useState<string | null>(null);
  const creatingRef = useRef(false);
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

  useEffect(() => {
    const page = activeId ? activeTitle || "Conversation" : PAGE_TITLES[route.name];
    document.title = page ? `${page} · Oracle` : "Oracle";
  }, [route.name, activeId, activeTitle]);

  /** "New conversation", or a first message from home: open (or reuse) one and go there. */
  const open = useCallback(
    async (content?: string, model?: ModelRef | null) => {
      if (creatingRef.current) return;
      creatingRef.current = true;
      setCreating(true);
      const conversation = await create();
      creatingRef.current = false;
      setCreating(false);
      // A first message must not be lost with a failed create: home gives it back to the composer.
      setUnsent(!conversation && content ? content : null);
      if (!conversation) return;
      // The model picked on the home page, before the first message is sent (a refusal leaves the default).
      if (model) await chooseModel(conversation.id, model);
      if (content) queueFirstMessage(conversation.id, content);
      const path = `/c/${encodeURIComponent(conversation.id)}`;
      const already = location.pathname === path;
      setOpened((n) => n + 1);
      navigate(path);
      // Reusing the chat already open: nothing re-mounts, so put the cursor in its composer here.
      if (already) document.querySelector<HTMLElement>("#main [data-testid=composer-input]")?.focus();
    },
    [create, chooseModel],
  );

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

  useShortcuts({
    "new-chat": () => {
      void open();
      return true;
    },
    search: () => {
      // On a phone the sidebar is the drawer, on every page; a wide screen shows it on home and the chats.
      if (matchMedia("(max-width: 760px)").matches) setDrawerOpen(true);
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

  const undoToast = list.pendingDelete && (
    <UndoToast
      key={list.pendingDelete.id}
      title={list.pendingDelete.title}
      inDrawer={drawerOpen}
      onUndo={() => {
        const id = list.pendingDelete?.id;
        list.undoDelete();
        if (id && id === deletedOpen.current && location.pathname === "/") navigate(`/c/${encodeURIComponent(id)}`);
        // Back on the row that came back.
        setTimeout(() => {
          if (!id) return;
          const selector = `[data-testid=conversation-item][data-id=${JSON.stringify(id)}] a`;
          document.querySelector<HTMLElement>(selector)?.focus();
        });
      }}
    />
  );

  // One menu button: in the header, or in a chat's title row (the one header row on a phone).
  const inChat = route.name === "conversation";
  const menu = <MenuButton open={drawerOpen} onClick={toggleDrawer} buttonRef={menuButton} />;

  let page: preact.ComponentChild;
  switch (route.name) {
    case "settings":
      page = <Settings tab={route.tab} />;
      break;
    case "library":
      page = <Library />;
      break;
    case "notes":
      page = <NotesPage path={route.path} />;
      break;
    case "tasks":
      page = <TasksPage />;
      break;
    case "schedules":
      page = <SchedulesPage />;
      break;
    case "conversation":
      page = (
        <Chat
          id={route.id}
          title={activeTitle}
          onTurnStarted={refreshSoon}
          onTurnEnded={refreshSoon}
          menu={menu}
          badge={health?.model.provider === "demo" && <DemoBadge testid="chat-demo-badge" />}
        />
      );
      break;
    case "home":
      page = creating ? (
        <div class={style.empty} aria-busy="true">
          Opening a conversation…
        </div>
      ) : (
        <Home
          onStart={(content, model) => void open(content, model)}
          unsent={unsent === null ? undefined : { content: unsent, problem: list.error ?? "the server refused" }}
        />
      );
      break;
    default:
      page = (
        <div class={style.empty} data-testid="page-not-found">
          <p>There is no page here.</p>
          <Link href="/" class={style.start}>
            Go home
          </Link>
        </div>
      );
  }

  return (
    <div class={style.shell} data-testid="shell" data-user={user.username}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link to #main; the handler only keeps "#main" out of the URL */}
      <a href="#main" class={style.skip} onClick={skipToMain} data-testid="skip-link">
        {route.name === "conversation" ? "Skip to chat" : "Skip to content"}
      </a>
      <Header user={user} health={health} onLogOut={logOut} menu={inChat ? null : menu} hiddenOnPhone={inChat} />
      <div class={style.body} data-sidebar={withSidebar ? "true" : "false"}>
        <Drawer open={drawerOpen} column={withSidebar} onClose={() => setDrawerOpen(false)} menuButton={menuButton}>
          <ConversationList
            conversations={conversations}
            activeId={activeId}
            error={list.error}
            opened={opened}
            creating={creating}
            onCreate={() => void open()}
            onDelete={onDelete}
            onRename={list.rename}
            onPin={list.pin}
          />
          <nav class={style.drawerPages} aria-label="Pages">
            {PAGES.map((p) => (
              <Link key={p.href} href={p.href} class={style.drawerLink} data-testid={`drawer-${p.testid}`}>
                <span aria-hidden="true">{p.icon}</span> {p.label}
              </Link>
            ))}
            <div class={style.drawerUser}>
              <span data-testid="drawer-current-user">{user.username}</span>
              <button type="button" onClick={logOut} data-testid="drawer-logout">
                Log out
              </button>
            </div>
          </nav>
          {drawerOpen && undoToast}
        </Drawer>
        {/* While the drawer is open (a phone), the page behind it is out of reach (inert). */}
        <main id="main" class={style.main} tabIndex={-1} inert={drawerOpen}>
          {page}
        </main>
        {!drawerOpen && undoToast}
      </div>
    </div>
  );
}

/**
 * "Deleted “title” · Undo", for as long as the delete can still be undone: at the top of the page, under
 * the header (over the chat's title, away from the composer's controls), or at the foot of the open
 * drawer on a phone (`inDrawer`, inside its focus trap, covering none of it).
 */
function UndoToast({ title, onUndo, inDrawer }: { title: string; onUndo: () => void; inDrawer: boolean }) {
  return (
    <div class={inDrawer ? style.toastInDrawer : style.toast} role="status" data-testid="delete-toast">
      <span class={style.toastText}>Deleted “{title || "Untitled conversation"}”</span>
      <span aria-hidden="true">·</span>
      <button type="button" class={style.undo} onClick={onUndo} data-testid="undo-delete">
        Undo
      </button>
    </div>
  );
}
