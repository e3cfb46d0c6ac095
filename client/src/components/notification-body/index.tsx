// The body of a `notification` system item: the headline as its first line, then the data decoded for
// people (see lib/notification-content.ts), collapsed when long. What cannot be decoded is shown raw
// with a visible mark, never dropped.
import { headlineOf, isLong, type Notification, notificationContent } from "../../lib/notification-content";
import { Collapsible } from "../collapsible";
import { Markdown } from "../markdown";
import { StructuredData } from "../structured-data";
import style from "./style.module.css";

function Content({ item }: { item: Notification }) {
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
  return (
    <div class={style.notification} data-format={item.format} data-subscriber={item.subscriber}>
      {headline && (
        <p class={style.headline} data-testid="notification-headline">
          {headline}
        </p>
      )}
      <Content item={item} />
    </div>
  );
}
