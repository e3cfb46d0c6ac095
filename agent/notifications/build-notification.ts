// From a closed batch to the notification the model and the user see: a headline rendered by the
// subscriber's template, the structured data (one row per deduped event), encoded as TOON or compact
// JSON, whichever is cheaper. A template that throws yields a generic headline and a logged error:
// a notification is never lost.
import type { NotificationPriority, Severity, SubscriberConfig, SystemItem, TemplateData } from "../../protocol";
import { encodeData } from "./encode";
import type { Batch } from "./subscriber-runtime";

export interface CompiledSubscriber {
  config: SubscriberConfig;
  file: string;
  render(data: TemplateData): string;
}

type NotificationItem = Extract<SystemItem, { kind: "notification" }>;

export interface Notification {
  source: string;
  severity: Severity;
  priority: NotificationPriority;
  /** The subscriber's id (also `item.subscriber`): what the user's toggles are checked against. */
  subscriber: string;
  item: NotificationItem;
  order: number;
  /** The bus events this notification carries. */
  eventIds: readonly string[];
}

const SEVERITIES: Severity[] = ["debug", "info", "warning", "error", "critical"];

/**
 * Fields a row can name besides the payload's: `at`, the event's time of day (UTC), and `count`, the
 * dedupe count for a subscriber that dedupes (otherwise `count` is the payload's own field).
 */
function eventField(config: SubscriberConfig, event: Batch["events"][number], field: string): unknown {
  if (field === "at") return event.ts.slice(11, 19);
  if (field === "count" && config.dedupe) return event.count;
  return event.payload[field];
}

export function rowsOf(config: SubscriberConfig, batch: Batch): Record<string, unknown>[] {
  const single = batch.events.length === 1;
  return batch.events.map((event) => {
    const fields = config.fields ?? Object.keys(event.payload);
    const row: Record<string, unknown> = {};
    for (const field of fields) {
      const value = eventField(config, event, field);
      // A table needs every column; a single row just leaves out what the event did not have.
      if (value !== undefined || !single) row[field] = value ?? null;
    }
    if (config.dedupe && !fields.includes("count")) row.count = event.count;
    return row;
  });
}

export function headline(subscriber: CompiledSubscriber, data: TemplateData): string {
  try {
    const line = subscriber.render(data).trim();
    if (line) return line;
  } catch (error) {
    console.error(`subscriber ${subscriber.config.id} (${subscriber.file}): template failed`, error);
  }
  return `${data.total} ${subscriber.config.name} event${data.total === 1 ? "" : "s"}`;
}

/**
 * The item (the template's headline, the data encoded) is built when first read: a notification of a
 * subscriber the user turned off is dropped unread, so it costs a turn nothing.
 */
export function buildNotification(subscriber: CompiledSubscriber, batch: Batch): Notification {
  const { config } = subscriber;
  const severity =
    SEVERITIES[Math.max(...batch.events.map((e) => SEVERITIES.indexOf(e.severity as Severity)))] ?? "info";
  let item: NotificationItem | undefined;
  return {
    source: config.source,
    severity,
    priority: config.priority,
    order: batch.order,
    eventIds: batch.eventIds,
    subscriber: config.id,
    get item() {
      item ??= notificationItem(subscriber, batch);
      return item;
    },
  };
}

function notificationItem(subscriber: CompiledSubscriber, batch: Batch): NotificationItem {
  const { config } = subscriber;
  const data: TemplateData = {
    events: batch.events,
    count: batch.events.length,
    total: batch.total,
    subscriber: { id: config.id, name: config.name },
  };
  const message = headline(subscriber, data);
  const rows = rowsOf(config, batch);
  const payload = rows.length === 1 ? rows[0] : rows;
  const encoded = encodeData(payload);
  return {
    kind: "notification",
    message,
    body: `[Notification: ${config.name}] ${message}\n${encoded.text}`,
    format: encoded.format,
    subscriber: config.id,
    priority: config.priority,
    data: payload,
  };
}
