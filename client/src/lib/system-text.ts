// Small text helpers for system items, whose bodies are the exact text the model saw.
import type { PodEvent } from "../../../protocol";
import { SYSTEM_REMINDER_CLOSE, SYSTEM_REMINDER_OPEN } from "../../../protocol";

/** The inside of a `<system-reminder>` block, for display; other text is returned unchanged. */
export function unwrapReminder(body: string): string {
  const trimmed = body.trim();
  if (trimmed.startsWith(SYSTEM_REMINDER_OPEN) && trimmed.endsWith(SYSTEM_REMINDER_CLOSE)) {
    return trimmed.slice(SYSTEM_REMINDER_OPEN.length, -SYSTEM_REMINDER_CLOSE.length).trim();
  }
  return body;
}

/** One line for a sub-agent ("pod") lifecycle event, worded as seed 002's render_pod_event. */
export function podEventLine(event: PodEvent): string {
  switch (event.type) {
    case "turn_ended":
      return `Pod ${event.pod_name} finished a turn`;
    case "errored":
      return `Pod ${event.pod_name} errored: ${event.message}`;
    case "shut_down":
      return `Pod ${event.pod_name} shut down`;
    case "scope_sub_delegated":
      return `Pod ${event.parent_pod} sub-delegated scope to ${event.sub_pod}`;
  }
}
