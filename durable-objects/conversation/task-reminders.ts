// Task reminders (seed 002 TaskReminder, source task_inactivity): when the task tools have gone unused
// for `taskReminderRequests` model requests while the user has open tasks, a reminder wrapped once in
// <system-reminder> is persisted before the next request. The count survives across turns.

import { listTasks } from "../../d1/tasks";
import type { MessageDraft } from "../../protocol";
import { reminderItem } from "../system-items/reminder";

const COUNTER_KEY = "requests-without-task-tools";
const LISTED = 5;

export class TaskReminders {
  private count: number | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly db: D1Database,
    private readonly userId: string,
  ) {}

  toolUsed(tool: string): void {
    if (!tool.startsWith("task_")) return;
    this.count = 0;
    void this.storage.put(COUNTER_KEY, 0);
  }

  /** Counts a model request; commits a reminder first when one is due. */
  async beforeRequest(threshold: number, append: (draft: MessageDraft) => Promise<unknown>): Promise<void> {
    if (threshold <= 0) return;
    this.count ??= (await this.storage.get<number>(COUNTER_KEY)) ?? 0;
    if (this.count >= threshold) {
      const open = (await listTasks(this.db, this.userId)).filter((t) => t.status !== "done");
      if (open.length) {
        await append({
          role: "system",
          source: "Task Reminder",
          severity: "info",
          item: reminderItem(reminderText(open, this.count)),
        });
        this.count = 0;
      }
    }
    this.count++;
    await this.storage.put(COUNTER_KEY, this.count);
  }
}

function reminderText(open: { id: string; title: string; status: string }[], requests: number): string {
  const lines = open.slice(0, LISTED).map((t) => `- [${t.status}] ${t.title} (id ${t.id})`);
  if (open.length > LISTED) lines.push(`- … and ${open.length - LISTED} more`);
  return [
    `The task tools have not been used for ${requests} model requests, and ${open.length} task${open.length === 1 ? " is" : "s are"} still open:`,
    ...lines,
    "If your work changed any of them, update it with task_update; create tasks for new work with task_create. Do not mention this reminder to the user.",
  ].join("\n");
}
