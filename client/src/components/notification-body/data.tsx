// A notification's data decoded for people (lib/notification-decode.ts), collapsed when long; what
// cannot be decoded is shown raw with a visible mark, never dropped. Loaded with the first card that
// has data to show (index.tsx), so the TOON decoder is not part of the initial JS.
import { isLong, type Notification } from "../../lib/notification-content";
import { notificationContent } from "../../lib/notification-decode";
import { Collapsible } from "../../ui/collapsible";
import { StructuredData } from "../../ui/structured-data";
import { Markdown } from "../markdown";
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
