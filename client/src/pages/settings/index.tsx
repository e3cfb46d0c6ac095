// /settings/agent, /settings/models, /settings/notifications, /settings/device-notifications,
// /settings/tools, /settings/shares and /settings/help: tabs are links, so each tab has its own URL and
// is at most two clicks from anywhere (gear, then tab).

import { PageFrame } from "../../components/page-frame";
import { BuiltinApprovals, ToolApprovalsProvider } from "../../components/tool-approvals";
import type { SettingsTab } from "../../lib/router";
import { Link } from "../../ui/link";
import { AgentSettings } from "./agent";
import { DeviceNotifications } from "./device-notifications";
import { Help } from "./help";
import { ModelSettings } from "./models";
import { NotificationSettings } from "./notifications";
import { SharedLinks } from "./shares";
import style from "./style.module.css";
import { ThemeSetting } from "./theme";
import { ToolSettings } from "./tools";

const TABS: { tab: SettingsTab; label: string }[] = [
  { tab: "agent", label: "Agent" },
  { tab: "models", label: "Models" },
  { tab: "notifications", label: "Notifications" },
  { tab: "device-notifications", label: "Notifications" },
  { tab: "tools", label: "Tools" },
  { tab: "shares", label: "Shared links" },
  { tab: "help", label: "Help" },
];

function Panel({ tab }: { tab: SettingsTab }) {
  switch (tab) {
    case "agent":
      return (
        <>
          <ThemeSetting />
          <AgentSettings />
        </>
      );
    case "models":
      return <ModelSettings />;
    case "notifications":
      return <NotificationSettings />;
    case "device-notifications":
      return <DeviceNotifications />;
    case "tools":
      return (
        <ToolApprovalsProvider>
          <ToolSettings />
          <BuiltinApprovals />
        </ToolApprovalsProvider>
      );
    case "shares":
      return <SharedLinks />;
    case "help":
      return <Help />;
  }
}

export function Settings({ tab }: { tab: SettingsTab }) {
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
      <div class={style.panel}>
        <Panel tab={tab} />
      </div>
    </PageFrame>
  );
}
