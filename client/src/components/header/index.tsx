// The top bar: brand, the model answering (a loud badge when it is the offline demo), the Library and
// Settings one click away, and the signed-in user with Log out.
import type { User } from "../../../../protocol";
import type { Health } from "../../lib/response-schemas";
import { Link } from "../link";
import style from "./style.module.css";

type Props = { user: User; health: Health | null; onLogOut: () => void };

export function Header({ user, health, onLogOut }: Props) {
  const demo = health?.model.provider === "demo";
  return (
    <header class={style.header}>
      <Link href="/" class={style.brand}>
        <span aria-hidden="true">◎</span> Oracle
      </Link>
      {health && (
        <span class={style.model} data-testid="model-badge" title="The model behind the agent">
          {health.model.provider} · {health.model.model}
        </span>
      )}
      {demo && (
        <span class={style.demo} data-testid="demo-badge">
          Demo model (offline)
        </span>
      )}
      <span class={style.spacer} />
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
