// System reminders (seed 002 `SystemReminder`): durable input wrapped exactly once in
// <system-reminder> tags, committed as a `task_reminder` item before the next model request.
import { SYSTEM_REMINDER_CLOSE, SYSTEM_REMINDER_OPEN, type SystemItem } from "../../protocol";

export type ReminderSource = "task_inactivity";

/** A body that arrives already wrapped is unwrapped, so rendering still wraps exactly once. */
export function normalizeReminderBody(body: string): string {
  const trimmed = body.trim();
  if (trimmed.startsWith(SYSTEM_REMINDER_OPEN) && trimmed.endsWith(SYSTEM_REMINDER_CLOSE)) {
    return trimmed
      .slice(SYSTEM_REMINDER_OPEN.length, trimmed.length - SYSTEM_REMINDER_CLOSE.length)
      .replace(/^\n+|\n+$/g, "");
  }
  return body;
}

export function renderReminder(body: string): string {
  return `${SYSTEM_REMINDER_OPEN}\n${body}\n${SYSTEM_REMINDER_CLOSE}`;
}

type TaskReminder = Extract<SystemItem, { kind: "task_reminder" }>;

/** `facts`: what the body says, for people (the card's sentence): the tasks by title, never by id. */
export function reminderItem(
  body: string,
  source: ReminderSource = "task_inactivity",
  facts: Pick<TaskReminder, "tasks" | "open" | "requests"> = {},
): TaskReminder {
  return { kind: "task_reminder", source, body: renderReminder(normalizeReminderBody(body)), ...facts };
}
