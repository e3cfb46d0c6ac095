// Keeps notifications from crowding the model's context (seed 000 edge case): beyond the most recent
// MAX_VERBATIM_NOTIFICATIONS, older ones are replaced by one summary line ("12 Tool success events").
// A pure function of the log, so a replay summarises exactly as the live turn did.
import type { Message, SystemMessage } from "../../protocol";

export const MAX_VERBATIM_NOTIFICATIONS = 20;

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

/** The seqs of notifications to fold into a summary, and the summary text placed at the first of them. */
export function planSummary(log: readonly Message[]): { folded: Set<number>; at: number; text: string } | undefined {
  const notifications = log.filter(isNotification);
  const excess = notifications.length - MAX_VERBATIM_NOTIFICATIONS;
  if (excess <= 0) return undefined;
  const older = notifications.slice(0, excess);
  const counts = new Map<string, number>();
  for (const m of older) counts.set(label(m), (counts.get(label(m)) ?? 0) + eventCount(m));
  const parts = [...counts].map(([name, n]) => `${n} ${name} event${n === 1 ? "" : "s"}`);
  const text = `[Notification summary] ${older.length} earlier notifications, summarised to save context: ${parts.join(", ")}.`;
  return { folded: new Set(older.map((m) => m.seq)), at: older[0]?.seq ?? 0, text };
}
