// What a System card keeps under Details, loaded apart from the first paint (the card loads it when it
// first shows, so it is there by the time Details is opened): the internal names (the raw source, a
// notification's subscriber and priority, a subagent's pod name), the notice's data decoded when its
// headline already says it, and what the model read: the item's `body`, byte for byte (a reminder's
// tags, TOON and all), shown only while Details is open.
import type { SystemMessage } from "../../../../protocol";
import { dataIsDetail } from "../../lib/notification-content";
import { JsonBlock } from "../../ui/json-block";
import { NotificationData } from "../notification-data";

/** The facts, as `<dt>`/`<dd>` pairs of the Details' list. */
export function SystemFacts({ message }: { message: SystemMessage }) {
  const { item } = message;
  return (
    <>
      <dt>From</dt>
      <dd data-testid="system-raw-source">{message.source}</dd>
      {item.kind === "notification" && item.subscriber && (
        <>
          <dt>Notification</dt>
          <dd>{item.subscriber}</dd>
        </>
      )}
      {item.kind === "notification" && (
        <>
          <dt>Priority</dt>
          <dd>{item.priority}</dd>
        </>
      )}
      {item.kind === "pod_event" && (
        <>
          <dt>Subagent</dt>
          <dd>{item.event.pod_name}</dd>
        </>
      )}
      <dt>Severity</dt>
      <dd data-testid="system-severity">{message.severity}</dd>
    </>
  );
}

/** Under the facts: the decoded data (a notice whose headline says it all), then, while open, what the model read. */
export function SystemDetailsMore({ message, open }: { message: SystemMessage; open: boolean }) {
  const { item } = message;
  return (
    <>
      {item.kind === "notification" && dataIsDetail(item) && <NotificationData item={item} />}
      {open && (
        <div data-testid="system-model-text">
          <JsonBlock label="What the agent read" value={item.body} />
        </div>
      )}
    </>
  );
}
