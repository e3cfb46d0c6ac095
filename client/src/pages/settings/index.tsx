// /settings/<tab> for each of lib/router.ts SETTINGS_TABS: tabs are links, so each tab has its own URL
// and is at most two clicks from anywhere (gear, then tab). What the agent works under (Agent, Models,
// Usage: what the user spent of the operator's models, Agent notices: what it is told while it works,
// Tools, Web: whether it may search and read pages, Personalization: the instructions every conversation
// starts with and what the agent remembers), then the app and the user (Appearance,
// Notifications: this device's, when an answer is ready; Shared links, Account, Help). A renamed tab's old URL opens it and is replaced by the new one.

import { useEffect } from "preact/hooks";
import { PageFrame } from "../../components/page-frame";
import { BuiltinApprovals, ToolApprovalsProvider } from "../../components/tool-approvals";
import { navigate, type SettingsTab } from "../../lib/router";
import { Link } from "../../ui/link";
import { Account, type AccountProps } from "./account";
import { AgentSettings } from "./agent";
import { AgentNotices } from "./agent-notices";
import { DeviceNotifications } from "./device-notifications";
import { Help } from "./help";
import { ModelSettings } from "./models";
import { Personalization } from "./personalization";
import { SharedLinks } from "./shares";
import style from "./style.module.css";
import { ThemeSetting } from "./theme";
import { ToolSettings } from "./tools";
import { UsageSettings } from "./usage";
import { WebSettings } from "./web";

const TABS: { tab: SettingsTab; label: string }[] = [
  { tab: "agent", label: "Agent" },
  { tab: "models", label: "Models" },
  { tab: "usage", label: "Usage" },
  { tab: "agent-notices", label: "Agent notices" },
  { tab: "tools", label: "Tools" },
  { tab: "web", label: "Web" },
  { tab: "personalization", label: "Personalization" },
  { tab: "appearance", label: "Appearance" },
  { tab: "device-notifications", label: "Notifications" },
  { tab: "shares", label: "Shared links" },
  { tab: "account", label: "Account" },
  { tab: "help", label: "Help" },
];

function Panel({ tab, account }: { tab: SettingsTab; account: AccountProps }) {
  switch (tab) {
    case "agent":
      return <AgentSettings />;
    case "appearance":
      return <ThemeSetting />;
    case "models":
      return <ModelSettings />;
    case "usage":
      return <UsageSettings />;
    case "agent-notices":
      return <AgentNotices />;
    case "device-notifications":
      return <DeviceNotifications />;
    case "tools":
      return (
        <ToolApprovalsProvider>
          <ToolSettings />
          <BuiltinApprovals />
        </ToolApprovalsProvider>
      );
    case "web":
      return <WebSettings />;
    case "personalization":
      return <Personalization />;
    case "shares":
      return <SharedLinks />;
    case "account":
      return <Account {...account} />;
    case "help":
      return <Help />;
  }
}

export function Settings({ tab, account }: { tab: SettingsTab; account: AccountProps }) {
  // An old address (/settings/notifications) shows the tab's own in the address bar.
  useEffect(() => {
    const here = location.pathname.replace(/\/+$/, "");
    if (here !== "/settings" && here !== `/settings/${tab}`) navigate(`/settings/${tab}`, { replace: true });
  }, [tab]);
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
        <Panel tab={tab} account={account} />
      </div>
    </PageFrame>
  );
}
