// Task reminders (seed 002 TaskReminder, source task_inactivity): when the task tools have gone unused
// for `taskReminderRequests` model requests while the user has open tasks, a reminder wrapped once in
// <system-reminder> is persisted before the next request. The count survives across turns.

import { reminderItem } from "../../../agent/system-items/reminder";
import { listTasks, type Task } from "../../../d1/tasks";
import type { MessageDraft } from "../../../protocol";

const COUNTER_KEY = "requests-without-task-tools";
const LISTED = 5;

export class TaskReminders {
  private count: number | undefined;
  /** The open tasks, read in the background one request before a reminder can be due. */
  private prefetched: Promise<Task[]> | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly db: D1Database,
    private readonly userId: string,
  ) {}

  toolUsed(tool: string): void {
    if (!tool.startsWith("task_")) return;
    this.count = 0;
    this.prefetched = undefined;
    void this.storage.put(COUNTER_KEY, 0);
  }

  /**
   * Counts a model request; commits a reminder first when one is due. The one D1 read this needs
   * (the open tasks) starts a request early and off the hot path, so no model request waits on D1
   * for it; with no open tasks the count starts over, rather than asking again at every request.
   */
  async beforeRequest(threshold: number, append: (draft: MessageDraft) => Promise<unknown>): Promise<void> {
    if (threshold <= 0) return;
    this.count ??= (await this.storage.get<number>(COUNTER_KEY)) ?? 0;
    if (this.count >= threshold) {
      const open = (await (this.prefetched ?? this.openTasks())).filter((t) => t.status !== "done");
      this.prefetched = undefined;
      if (open.length) {
        await append({
          role: "system",
          source: "Task Reminder",
          severity: "info",
          item: reminderItem(reminderText(open, this.count), "task_inactivity", {
            tasks: open.slice(0, LISTED).map((t) => ({ title: t.title, status: t.status })),
            open: open.length,
            requests: this.count,
          }),
        });
      }
      this.count = 0;
    }
    this.count++;
    if (this.count >= threshold && !this.prefetched) {
      this.prefetched = this.openTasks();
      // Read again when due if this one fails; never an unhandled rejection meanwhile.
      this.prefetched.catch(() => {
        this.prefetched = undefined;
      });
    }
    await this.storage.put(COUNTER_KEY, this.count);
  }

  private openTasks(): Promise<Task[]> {
    return listTasks(this.db, this.userId);
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
