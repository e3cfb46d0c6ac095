// The body of a `notification` system item: the headline as its first line, why in words when the
// headline leaves it out (a tool's error), then the data decoded for people (see
// components/notification-data, a chunk of its own), collapsed when long; for a shipped subscriber whose headline says it
// all, the data is detail and the card shows it under Details instead (NotificationData). What cannot
// be decoded is shown raw with a visible mark, never dropped. An unreachable MCP server's card offers
// to turn the server off or test it again.
import {
  dataIsDetail,
  type Notification,
  noticeReason,
  shownHeadline,
  unavailableServers,
} from "../../lib/notification-content";
import { lazyPart } from "../shell/lazy";

/** The MCP notice's actions (and Settings → Tools' hook they use) load with the first such notice. */
const McpNoticeActions = lazyPart(() => import("../mcp-notice-actions").then((m) => m.McpNoticeActions));

import style from "./style.module.css";

/** The data, decoded for people: a chunk of its own with the TOON decoder, loaded with the first data shown. */
const NotificationData = lazyPart(() => import("../notification-data").then((m) => m.NotificationData));

export function NotificationBody({ item }: { item: Notification }) {
  const headline = shownHeadline(item);
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
