// A notification's data, decoded for people (lib/notification-data.ts): a table or fields, text, or
// what could not be parsed shown raw with a visible mark; collapsed when long. A chunk of its own, with
// the TOON decoder: loaded by the first notice that shows data (or opens its Details).
import type { Notification } from "../../lib/notification-content";
import { isLong, notificationContent } from "../../lib/notification-data";
import { Collapsible } from "../../ui/collapsible";
import { StructuredData } from "../../ui/structured-data";
import { Markdown } from "../markdown";
import style from "../notification-body/style.module.css";

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
