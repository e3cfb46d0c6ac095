// The top bar: brand, the model answering (a loud badge when it is the offline demo), the Library and
// Settings one click away, and the signed-in user with Log out.
import type { User } from "../../../../protocol";
import type { Health } from "../../lib/response-schemas";
import { Link } from "../link";
import style from "./style.module.css";

type Props = { user: User; health: Health | null; onLogOut: () => void };

/** The badge's tooltip: the model, and the prices the token meters' costs come from, when set. */
function modelTitle({ model }: Health): string {
  const { prices } = model;
  if (!prices) return "The model behind the agent";
  return `The model behind the agent. Prices per million tokens: input ${prices.input}, cached input ${prices.cached_input}, output ${prices.output}`;
}

export function Header({ user, health, onLogOut }: Props) {
  const demo = health?.model.provider === "demo";
  return (
    <header class={style.header}>
      <Link href="/" class={style.brand}>
        <span aria-hidden="true">◎</span> Oracle
      </Link>
      {health && (
        <span class={style.model} data-testid="model-badge" title={modelTitle(health)}>
          {health.model.provider} · {health.model.model}
        </span>
      )}
      {demo && (
        <span class={style.demo} data-testid="demo-badge">
          Demo model (offline)
        </span>
      )}
      <span class={style.spacer} />
      <Link href="/notes" class={style.settings} title="Your notes" data-testid="notes-link">
        <span aria-hidden="true">✎</span> Notes
      </Link>
      <Link href="/tasks" class={style.settings} title="Your tasks" data-testid="tasks-link">
        <span aria-hidden="true">☑</span> Tasks
      </Link>
      <Link href="/library" class={style.settings} title="Knowledge entries and workflows" data-testid="library-link">
        <span aria-hidden="true">▤</span> Library
      </Link>
      <Link href="/settings/agent" class={style.settings} title="Settings" data-testid="settings-link">
        <span aria-hidden="true">⚙</span> Settings
      </Link>
      <span class={style.user} data-testid="current-user">
        {user.username}
      </span>
      <button type="button" onClick={onLogOut} data-testid="logout">
        Log out
      </button>
    </header>
  );
}
