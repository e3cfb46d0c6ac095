// /settings/agent and /settings/notifications: tabs are links, so each tab has its own URL and is at most
// two clicks from anywhere (gear, then tab).

import { AgentSettings } from "../agent-settings";
import { Link } from "../link";
import { NotificationSettings } from "../notification-settings";
import { PageFrame } from "../page-frame";
import style from "./style.module.css";

type Tab = "agent" | "notifications";

const TABS: { tab: Tab; label: string }[] = [
  { tab: "agent", label: "Agent" },
  { tab: "notifications", label: "Notifications" },
];

export function Settings({ tab }: { tab: Tab }) {
  return (
    <PageFrame title="Settings" width="medium">
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
    </PageFrame>
  );
}
