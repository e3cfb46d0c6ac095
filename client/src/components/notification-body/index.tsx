// The body of a `notification` system item: the headline as its first line, why in words when the
// headline leaves it out (a tool's error), then the data decoded for people (see
// lib/notification-content.ts), collapsed when long; for a shipped subscriber whose headline says it
// all, the data is detail and the card shows it under Details instead (NotificationData). What cannot
// be decoded is shown raw with a visible mark, never dropped. An unreachable MCP server's card offers
// to turn the server off or test it again.
import {
  dataIsDetail,
  headlineOf,
  isLong,
  type Notification,
  noticeReason,
  notificationContent,
  unavailableServers,
} from "../../lib/notification-content";
import { Collapsible } from "../../ui/collapsible";
import { StructuredData } from "../../ui/structured-data";
import { Markdown } from "../markdown";
import { lazyPart } from "../shell/lazy";

/** The MCP notice's actions (and Settings → Tools' hook they use) load with the first such notice. */
const McpNoticeActions = lazyPart(() => import("../mcp-notice-actions").then((m) => m.McpNoticeActions));

import style from "./style.module.css";

/** The notification's data, decoded for people. */
export function NotificationData({ item }: { item: Notification }) {
  const content = notificationContent(item);
  switch (content.kind) {
    case "data":
      return (
        <Collapsible long={isLong(content)}>
          <div data-testid="notification-data" data-decoded-from={content.from}>
            <StructuredData value={content.value} />
          </div>
        </Collapsible>
      );
    case "text":
      return (
        <Collapsible long={isLong(content)}>
          <Markdown text={content.text} />
        </Collapsible>
      );
    case "unparsed":
      return (
        <Collapsible long={isLong(content)}>
          <span
            class={style.mark}
            data-testid="could-not-parse"
            title={`The ${content.format.toUpperCase()} data of this notification could not be parsed; it is shown as received.`}
          >
            ⚠ could not parse {content.format.toUpperCase()}: shown as received
          </span>
          <pre class={style.raw}>{content.text}</pre>
        </Collapsible>
      );
    case "empty":
      return null;
  }
}

export function NotificationBody({ item }: { item: Notification }) {
  const headline = headlineOf(item);
  const reason = noticeReason(item);
  const servers = unavailableServers(item);
  return (
    <div class={style.notification} data-format={item.format} data-subscriber={item.subscriber}>
      {headline && (
        <p class={style.headline} data-testid="notification-headline">
          {headline}
        </p>
      )}
      {reason && (
        <p class={style.reason} data-testid="notification-reason">
          {reason}
        </p>
      )}
      {!dataIsDetail(item) && <NotificationData item={item} />}
      {servers.length > 0 && <McpNoticeActions servers={servers} />}
    </div>
  );
}
