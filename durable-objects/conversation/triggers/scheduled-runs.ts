// Runs the conversation's schedules (d1/schedules.ts): the object's one alarm (alarm.ts) is kept at the
// earliest due run, and when it fires each due schedule's message is posted as the user's and its turn
// started, as a `chat` frame would. A run goes through a queue in the object's storage:
//   1. collect: a due run is queued (keyed by schedule and occurrence) before its schedule is advanced in
//      D1 to its next occurrence strictly after now, so runs missed while nothing was awake run once;
//   2. drain: when no turn runs and no question waits, the first queued run is posted and its turn
//      started, then dequeued. A run whose message is already in the log (a crash between the two) is
//      dropped, not posted again; a run whose schedule was deleted or paused meanwhile is dropped too.
// A run due while a turn runs waits in the queue and starts when that turn ends (turnEnded: the turn's
// lifecycle tells this runner itself, and the runner starts the turn through TurnStarts, with no
// closure between them).

import { nextRun, ruleOf } from "../../../core/schedule-times";
import {
  advanceSchedule,
  dueSchedules,
  earliestRun,
  handOverSchedule,
  recordRun,
  runConversation,
  stillScheduled,
} from "../../../d1/schedules";
import type { MessageOrigin } from "../../../protocol";
import type { LogQueries } from "../log/log-queries";
import type { SocketMeta } from "../sockets/socket-hub";
import type { TurnStarts } from "../turn/turn-starts";
import { alarmBy } from "./alarm";

/** One due run waiting to be posted. */
export interface ScheduledRun {
  schedule_id: string;
  name: string;
  text: string;
  due_at: string;
  /** A project's schedule: the run goes into a new conversation of the project when this one is used. */
  project_id?: string;
}

/** Gives a run to another conversation's object, which queues and posts it (a project's schedule's next run). */
export type RunRelay = (conversationId: string, run: ScheduledRun) => Promise<void>;

export const SCHEDULED_RUNS_KEY = "scheduled-runs";
/**
 * The earliest run still to come, as last read from D1 (null: none), so a turn's end re-arms the alarm
 * without a D1 read. Read again whenever the schedules may have changed: an alarm, the Worker's
 * `schedulesChanged`, a turn that used the `schedule` tool.
 */
const NEXT_RUN_KEY = "schedule-next-run";
/** An alarm for a run already due is set this far ahead, so a failing D1 never spins the alarm. */
const RETRY_MS = 1_000;

/** Whether a run must wait (a turn runs or a question waits), and how its turn starts, as a chat frame's. */
export type ScheduleHost = Pick<TurnStarts, "busy" | "start">;

export class ScheduleRunner {
  private draining = false;
  private closed = false;
  /** The schedules may have changed since NEXT_RUN_KEY was read (the running turn used the tool). */
  private stale = false;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly db: D1Database,
    private readonly meta: SocketMeta,
    private readonly turns: ScheduleHost,
    private readonly log: LogQueries,
    private readonly relay: RunRelay,
  ) {}

  private get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }

  /** The alarm fired, or the Worker says the schedules changed: queue what is due, run it, arm for the next. */
  async onAlarm(now = new Date()): Promise<void> {
    if (this.closed) return;
    await this.collect(now);
    await this.drain();
    await this.arm();
  }

  /**
   * A turn ended (its watchdog alarm may have been taken back): the next queued run starts and the alarm
   * is re-armed, in the background (lifecycle.ts calls this after every turn).
   */
  turnEnded(): void {
    if (this.closed) return;
    const work = this.drain().then(() => this.arm(this.stale));
    this.ctx.waitUntil(
      work.catch((error) => console.error("ConversationObject", this.ctx.id.toString(), "scheduled run", error)),
    );
  }

  /** The running turn changed this conversation's schedules (the `schedule` tool): re-read at its end. */
  changed(): void {
    this.stale = true;
  }

  /**
   * Another conversation's runner handed this one a run (a project's schedule moved here): queued like a
   * due run of its own, once, then posted and the alarm armed for the schedule's next run.
   */
  async accept(run: ScheduledRun): Promise<void> {
    if (this.closed) return;
    const queue = await this.queue();
    if (!queue.some((r) => r.schedule_id === run.schedule_id && r.due_at === run.due_at))
      await this.storage.put(SCHEDULED_RUNS_KEY, [...queue, run]);
    await this.drain();
    await this.arm();
  }

  /** The conversation is being erased: nothing more starts. */
  close(): void {
    this.closed = true;
  }

  private async queue(): Promise<ScheduledRun[]> {
    return (await this.storage.get<ScheduledRun[]>(SCHEDULED_RUNS_KEY)) ?? [];
  }

  private async collect(now: Date): Promise<void> {
    const { userId, conversationId } = this.meta;
    const due = await dueSchedules(this.db, userId, conversationId, now);
    if (!due.length) return;
    const queue = await this.queue();
    const fresh = due.filter((s) => !queue.some((run) => run.schedule_id === s.id && run.due_at === s.next_run_at));
    // Queued first, advanced second: an alarm retried after a crash between the two finds the run queued.
    if (fresh.length) {
      const runs = fresh.map((s) => ({
        schedule_id: s.id,
        name: s.name,
        text: s.text,
        due_at: s.next_run_at ?? "",
        ...(s.project_id ? { project_id: s.project_id } : {}),
      }));
      await this.storage.put(SCHEDULED_RUNS_KEY, [...queue, ...runs]);
    }
    for (const schedule of due) {
      // A one-off is done once it ran; a recurring one goes on from now, not from the run it missed.
      const next = schedule.kind === "once" ? null : nextRun(ruleOf(schedule), schedule.time_zone, now);
      await advanceSchedule(this.db, userId, schedule.id, schedule.next_run_at ?? "", next);
    }
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const run = (await this.queue())[0];
        if (!run || this.closed || (await this.turns.busy())) return;
        const { userId } = this.meta;
        const live = await stillScheduled(this.db, userId, run.schedule_id);
        const posted = this.log.scheduledRunPosted(run.schedule_id, run.due_at);
        if (live && !posted && run.project_id && this.log.hasUserMessage()) {
          await handOver(this.db, this.meta, this.relay, { ...run, project_id: run.project_id });
          await this.dequeue(run);
          continue;
        }
        const refused =
          live && !posted ? await this.turns.start({ frame: { content: run.text }, origin: origin(run) }) : undefined;
        await this.dequeue(run);
        if (!live || posted) continue;
        await recordRun(this.db, userId, run.schedule_id, refused ? "failed" : "started", new Date(), refused?.message);
        if (!refused) return;
      }
    } finally {
      this.draining = false;
    }
  }

  private async dequeue(run: ScheduledRun): Promise<void> {
    const rest = (await this.queue()).filter((r) => !(r.schedule_id === run.schedule_id && r.due_at === run.due_at));
    await this.storage.put(SCHEDULED_RUNS_KEY, rest);
  }

  /**
   * The alarm at the earliest run still to come (alarmBy keeps an earlier one: a question's, the
   * watchdog). `fresh`: read it from D1 (else the copy kept in storage, unless there is none yet).
   */
  private async arm(fresh = true): Promise<void> {
    if (this.closed) return;
    const kept = fresh ? undefined : await this.storage.get<string | null>(NEXT_RUN_KEY);
    let next = kept;
    if (next === undefined) {
      this.stale = false;
      next = await earliestRun(this.db, this.meta.userId, this.meta.conversationId);
      await this.storage.put(NEXT_RUN_KEY, next);
    }
    const queued = (await this.queue()).length > 0 && !(await this.turns.busy());
    const times = [next ? Date.parse(next) : undefined, queued ? Date.now() : undefined].filter(
      (t): t is number => t !== undefined,
    );
    if (times.length) await alarmBy(this.storage, Math.max(Math.min(...times), Date.now() + RETRY_MS));
  }
}

const origin = (run: ScheduledRun): MessageOrigin => ({
  kind: "schedule",
  schedule_id: run.schedule_id,
  name: run.name,
  due_at: run.due_at,
});

/**
 * A project's schedule whose conversation is used already: its run goes into a new conversation of the
 * project, which the schedule then follows (its alarm too). Each step can be done again after a crash:
 * the conversation's id comes from the run, the hand-over only moves the schedule from here, and the
 * other object queues a run once.
 */
async function handOver(
  db: D1Database,
  { userId, conversationId }: SocketMeta,
  relay: RunRelay,
  run: ScheduledRun & { project_id: string },
): Promise<void> {
  const target = await runConversationId(run);
  if (await runConversation(db, userId, target, run.name, run.project_id)) {
    await handOverSchedule(db, userId, run.schedule_id, conversationId, target);
    await relay(target, run);
  } else await recordRun(db, userId, run.schedule_id, "failed", new Date(), "Its project was deleted");
}

/** The conversation a project's schedule's run goes into: the same for the same run, a UUID like any. */
async function runConversationId(run: ScheduledRun): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${run.schedule_id}/${run.due_at}`)),
  );
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
