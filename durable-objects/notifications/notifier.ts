// The notifier the loop emits events into and flushes at injection points. Notifications become
// persisted `notification` system items, so the model reads them in its next request and the user
// sees them as System messages.
import type { BusEvent, MessageDraft, Severity } from "../../protocol";
import { type EventDraft, type InjectionPoint, stampEvent } from "../agent/events";

export interface Notifier {
  emit(event: EventDraft): void;
  flush(point: InjectionPoint): Promise<void>;
}

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

/** The one-line text of an event for the model and the user, or nothing for events nobody is told about. */
export function noticeFor(event: BusEvent): { source: string; severity: Severity; message: string } | undefined {
  const p = event.payload;
  switch (event.type) {
    case "tool.failure":
    case "tool.timeout":
      return { source: "Tool Executor", severity: "error", message: `${p.tool} failed (${p.error_type}): ${p.error}` };
    case "budget.warning":
    case "budget.exceeded":
    case "loop.detected":
      return { source: event.source, severity: event.severity, message: String(p.message ?? event.type) };
    case "external.notify":
      return { source: "External", severity: event.severity, message: String(p.message) };
    default:
      return undefined;
  }
}

/** Each event that concerns the model becomes one notification at the next injection point. */
export class ImmediateNotifier implements Notifier {
  private pending: SystemDraft[] = [];

  constructor(private readonly append: (draft: SystemDraft) => Promise<unknown>) {}

  emit(draft: EventDraft): void {
    const event = stampEvent(draft);
    const notice = noticeFor(event);
    if (!notice) return;
    this.pending.push({
      role: "system",
      source: notice.source,
      severity: notice.severity,
      item: {
        kind: "notification",
        message: notice.message,
        body: `[Notification] ${notice.message}`,
        format: "text",
        priority: event.severity === "critical" ? "critical" : "normal",
        data: { type: event.type, ...event.payload },
      },
    });
  }

  async flush(_point: InjectionPoint): Promise<void> {
    const due = this.pending;
    this.pending = [];
    for (const draft of due) await this.append(draft);
  }
}
