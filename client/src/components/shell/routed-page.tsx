// The page a route shows inside the Shell's <main>: home and a chat are in the first load; Settings, the
// Library, Notes, Tasks, Schedules and a project's page load on their first visit (lazyPage), each a chunk of its own.
import type { ComponentChild } from "preact";
import type { Attachment, ModelRef, User } from "../../../../protocol";
import type { Route } from "../../lib/router";
import { Chat } from "../../pages/chat";
import { Home } from "../../pages/home";
import { Link } from "../../ui/link";
import { lazyPage } from "./lazy";
import style from "./style.module.css";
import type { Unsent } from "./use-open-conversation";

const Settings = lazyPage(() => import("../../pages/settings").then((m) => m.Settings));
const Library = lazyPage(() => import("../../pages/library").then((m) => m.Library));
const NotesPage = lazyPage(() => import("../../pages/notes").then((m) => m.NotesPage));
const TasksPage = lazyPage(() => import("../../pages/tasks").then((m) => m.TasksPage));
const SchedulesPage = lazyPage(() => import("../../pages/schedules").then((m) => m.SchedulesPage));
const ProjectPage = lazyPage(() => import("../../pages/project").then((m) => m.ProjectPage));
const AdminPage = lazyPage(() => import("../../pages/admin").then((m) => m.AdminPage));

type Props = {
  route: Route;
  /** A chat's title row: its title, the menu button, the demo badge, and what a turn's start and end refresh. */
  chat: { title?: string; menu: ComponentChild; badge: ComponentChild; onTurn: () => void };
  /** Home: a conversation is being opened, the first message to start one, and one given back. */
  home: {
    creating: boolean;
    onStart: (content: string, model: ModelRef | null, files?: Attachment[]) => void;
    unsent?: Unsent;
  };
  /** Settings → Account: who is signed in, and Log out. */
  account: { user: User; onLogOut: () => void };
};

export function RoutedPage({ route, chat, home, account }: Props) {
  switch (route.name) {
    case "settings":
      return <Settings tab={route.tab} account={account} />;
    case "library":
      return <Library />;
    case "notes":
      return <NotesPage path={route.path} />;
    case "tasks":
      return <TasksPage />;
    case "schedules":
      return <SchedulesPage />;
    case "project":
      return <ProjectPage id={route.id} />;
    case "admin":
      // Anyone but an admin gets the not-found page below, and the admin chunk is never loaded.
      if (account.user.admin) return <AdminPage />;
      return <NotFound />;
    case "conversation":
      return (
        <Chat
          id={route.id}
          title={chat.title}
          onTurnStarted={chat.onTurn}
          onTurnEnded={chat.onTurn}
          menu={chat.menu}
          badge={chat.badge}
        />
      );
    case "home":
      return home.creating ? (
        <div class={style.empty} aria-busy="true">
          Opening a conversation…
        </div>
      ) : (
        <Home onStart={home.onStart} unsent={home.unsent} />
      );
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <div class={style.empty} data-testid="page-not-found">
      <p>There is no page here.</p>
      <Link href="/" class={style.start}>
        Go home
      </Link>
    </div>
  );
}
