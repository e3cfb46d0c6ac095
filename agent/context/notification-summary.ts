// Keeps notifications from crowding the model's context (seed 000 edge case): when a compaction folds
// older messages away, the notifications among them become one line of counts ("12 Tool success
// events"). Only at a compaction: folding on a sliding window would rewrite the start of every request
// and forfeit the provider's prompt cache.
import type { Message, SystemMessage } from "../../protocol";

const isNotification = (m: Message): m is SystemMessage => m.role === "system" && m.item.kind === "notification";

/** Events a notification stands for: the sum of its rows' counts (1 per row without a count). */
export function eventCount(message: SystemMessage): number {
  if (message.item.kind !== "notification") return 1;
  const data = message.item.data;
  const rows = Array.isArray(data) ? data : data && typeof data === "object" ? [data] : [];
  const total = rows.reduce(
    (n: number, row) =>
      n + (typeof (row as { count?: unknown }).count === "number" ? (row as { count: number }).count : 1),
    0,
  );
  return Math.max(1, total);
}

function label(message: SystemMessage): string {
  const match = message.item.body.match(/^\[Notification: ([^\]]+)\]/);
  return match?.[1] ?? message.source;
}

/** Failures named in a summary at most: the latest ones, which the work going on may still depend on. */
export const NAMED_FAILURES = 5;

/**
 * One line counting the notifications among `messages` by kind, or undefined when there are none.
 * Errors keep their message ("vault_read failed"), the latest NAMED_FAILURES of them: a summary the
 * model wrote may leave a failure out, and the agent must still know of it (seed 000 SC-001).
 */
export function summarizeNotifications(messages: readonly Message[]): string | undefined {
  const notifications = messages.filter(isNotification);
  if (!notifications.length) return undefined;
  const counts = new Map<string, number>();
  for (const m of notifications) counts.set(label(m), (counts.get(label(m)) ?? 0) + eventCount(m));
  const parts = [...counts].map(([name, n]) => `${n} ${name} event${n === 1 ? "" : "s"}`);
  const failures = notifications.filter((m) => m.severity === "error" || m.severity === "critical");
  const named = failures.slice(-NAMED_FAILURES).map((m) => (m.item.kind === "notification" ? m.item.message : ""));
  const more = failures.length - named.length;
  const errors = named.length
    ? ` Errors among them${more ? ` (the latest ${named.length} of ${failures.length})` : ""}: ${named.join("; ")}.`
    : "";
  return `[Notification summary] ${notifications.length} earlier notification${notifications.length === 1 ? "" : "s"}, summarised to save context: ${parts.join(", ")}.${errors}`;
}
