// The top bar: brand, the model the page in view answers with (the open conversation's, else the
// user's default; its plain name; with the offline demo only the loud Demo badge, which says it once
// instead of "demo · demo"; provider and prices are in the tooltip), the Library and Settings one click
// away, and the signed-in user with Log out. On a phone it is one row: the menu button (which opens the
// drawer holding the conversations and these links), the brand and a short demo badge; in a
// conversation it is not shown there at all: the chat's title row is the one header and carries the
// menu button and the badge (MenuButton, DemoBadge), as ChatGPT's phone layout does.
import type { ComponentChild, Ref } from "preact";
import type { AvailableModel, User } from "../../../../protocol";
import { Icon } from "../../ui/icon";
import { Link } from "../../ui/link";
import style from "./style.module.css";

type Props = {
  user: User;
  /** The model the page in view answers with; null or undefined while not known. */
  model: AvailableModel | null | undefined;
  onLogOut: () => void;
  /** The menu button (a phone), unless the page shows it in its own header row. */
  menu?: ComponentChild;
  /** On a phone the page's own header row replaces this one (a conversation). */
  hiddenOnPhone?: boolean;
};

/** The badge's tooltip: the model, and the prices the token meters' costs come from, when set. */
function modelTitle({ prices }: AvailableModel): string {
  if (!prices) return "The model behind the agent";
  return `The model behind the agent. Prices per million tokens: input ${prices.input}, cached input ${prices.cached_input}, output ${prices.output}`;
}

/** The pages besides the chat; the header shows them on a wide screen, the drawer on a phone. */
export const PAGES = [
  { href: "/notes", label: "Notes", icon: "✎", title: "Your notes", testid: "notes-link" },
  { href: "/tasks", label: "Tasks", icon: "☑", title: "Your tasks", testid: "tasks-link" },
  { href: "/schedules", label: "Schedules", icon: "◷", title: "Scheduled messages", testid: "schedules-link" },
  { href: "/library", label: "Library", icon: "▤", title: "Knowledge entries and workflows", testid: "library-link" },
  { href: "/settings/agent", label: "Settings", icon: "⚙", title: "Settings", testid: "settings-link" },
] as const;

/** The admin page's link: for admins only (anyone else never learns of the page). */
const ADMIN_PAGE = {
  href: "/admin",
  label: "Admin",
  icon: "⚑",
  title: "Users, invites and usage",
  testid: "admin-link",
};

/** The pages this user is offered. */
export const pagesFor = (user: Pick<User, "admin">) => (user.admin ? [...PAGES, ADMIN_PAGE] : PAGES);

/** Opens and closes the drawer; shown on a phone only. */
export function MenuButton({
  open,
  onClick,
  buttonRef,
}: {
  open: boolean;
  onClick: () => void;
  buttonRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={buttonRef}
      type="button"
      class={style.menu}
      aria-label="Menu"
      aria-expanded={open ? "true" : "false"}
      aria-controls="drawer"
      onClick={onClick}
      data-testid="menu-button"
    >
      <Icon name="menu" size="20px" />
    </button>
  );
}

/** "Demo model (offline)", or "Demo" on a phone: the answers come from the offline demo model. */
export function DemoBadge({ testid = "demo-badge" }: { testid?: string }) {
  return (
    <span class={style.demo} data-testid={testid} title="Demo model (offline)">
      <span class={style.long}>Demo model (offline)</span>
      <span class={style.short}>Demo</span>
    </span>
  );
}

export function Header({ user, model, onLogOut, menu, hiddenOnPhone }: Props) {
  const demo = model?.demo === true;
  return (
    <header class={hiddenOnPhone ? `${style.header} ${style.hiddenOnPhone}` : style.header}>
      {menu}
      <Link href="/" class={style.brand} data-testid="brand">
        <span aria-hidden="true">◎</span> Oracle
      </Link>
      {model && !demo && (
        <span class={style.model} data-testid="model-badge" title={`${model.provider_name}: ${modelTitle(model)}`}>
          {model.model}
        </span>
      )}
      {demo && <DemoBadge />}
      <span class={style.spacer} />
      <nav class={style.pages} aria-label="Pages">
        {pagesFor(user).map((page) => (
          <Link key={page.href} href={page.href} class={style.settings} title={page.title} data-testid={page.testid}>
            <span aria-hidden="true">{page.icon}</span> {page.label}
          </Link>
        ))}
      </nav>
      <span class={style.user} data-testid="current-user">
        {user.username}
      </span>
      <button type="button" class={style.logout} onClick={onLogOut} data-testid="logout">
        Log out
      </button>
    </header>
  );
}
