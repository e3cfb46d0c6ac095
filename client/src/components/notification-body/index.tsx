// The body of a `notification` system item, decoded for people (see lib/notification-content.ts).

import type { SystemItem } from "../../../../protocol";
import { notificationContent } from "../../lib/notification-content";
import { PlainText } from "../plain-text";
import { StructuredData } from "../structured-data";
import style from "./style.module.css";

type Props = { item: Extract<SystemItem, { kind: "notification" }> };

export function NotificationBody({ item }: Props) {
  const content = notificationContent(item);
  switch (content.kind) {
    case "data":
      return <StructuredData value={content.value} />;
    case "text":
      return <PlainText text={content.text} />;
    case "unparsed":
      return (
        <div>
          <span class={style.mark} data-testid="could-not-parse">
            could not parse {item.format.toUpperCase()}
          </span>
          <pre class={style.raw}>{content.text}</pre>
        </div>
      );
  }
}
