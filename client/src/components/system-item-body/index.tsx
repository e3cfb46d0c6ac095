// The body of a system message, one rendering per SystemItem kind (seed 002), so the UI dispatches on
// `kind` instead of parsing text prefixes.
import type { SystemItem } from "../../../../protocol";
import { podEventLine, unwrapReminder } from "../../lib/system-text";
import { Collapsible } from "../collapsible";
import { Icon, type IconName } from "../icon";
import { NotificationBody } from "../notification-body";
import { PlainText } from "../plain-text";
import style from "./style.module.css";

function Expandable({ icon, label, body }: { icon: IconName; label: string; body: string }) {
  return (
    <details class={style.expandable}>
      <summary class={style.chip}>
        <Icon name={icon} /> {label}
      </summary>
      <pre class={style.pre}>{body}</pre>
    </details>
  );
}

export function SystemItemBody({ item }: { item: SystemItem }) {
  switch (item.kind) {
    case "notification":
      return <NotificationBody item={item} />;
    case "file_attachment":
      return <Expandable icon="file" label={item.path} body={item.body} />;
    case "knowledge":
      return <Expandable icon="book" label={item.slug} body={item.body} />;
    case "workflow":
      return <Expandable icon="flow" label={item.slug} body={item.body} />;
    case "task_reminder":
      return (
        <div class={style.reminder}>
          <span class={style.reminderLabel}>
            <Icon name="clock" /> Reminder
          </span>
          <Collapsible>
            <PlainText text={unwrapReminder(item.body)} />
          </Collapsible>
        </div>
      );
    case "interrupt":
      return (
        <div class={style.interrupt} data-testid="interrupt-banner">
          The previous turn was interrupted
        </div>
      );
    case "pod_event":
      return <div class={style.line}>{podEventLine(item.event)}</div>;
  }
}
