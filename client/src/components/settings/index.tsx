// /settings/agent and /settings/notifications: tabs are links, so each tab has its own URL and is at most
// two clicks from anywhere (gear, then tab).

import { AgentSettings } from "../agent-settings";
import { Link } from "../link";
import { NotificationSettings } from "../notification-settings";
import style from "./style.module.css";

type Tab = "agent" | "notifications";

const TABS: { tab: Tab; label: string }[] = [
  { tab: "agent", label: "Agent" },
  { tab: "notifications", label: "Notifications" },
];

export function Settings({ tab }: { tab: Tab }) {
  return (
    <div class={style.page}>
      <div class={style.inner}>
        <div class={style.top}>
          <Link href="/" class={style.back}>
            ← Back to chat
          </Link>
          <h1 class={style.title}>Settings</h1>
        </div>
        <nav class={style.tabs} aria-label="Settings sections">
          {TABS.map(({ tab: name, label }) => (
            <Link
              key={name}
              href={`/settings/${name}`}
              class={`${style.tab} ${name === tab ? style.active : ""}`}
              aria-current={name === tab ? "page" : undefined}
              data-testid={`tab-${name}`}
            >
              {label}
            </Link>
          ))}
        </nav>
        <div class={style.panel}>{tab === "agent" ? <AgentSettings /> : <NotificationSettings />}</div>
      </div>
    </div>
  );
}
