// The one running turn's life: launched (its record begun, its input persisted, then run in the
// background), ended (record, waits, watchdog and index released, then the title and whoever waits for
// the turn's end), stopped (Stop, a revoked credential, an erase), and the object's alarm as the turn
// needs it: every wait's deadline (waits/) and, while a turn runs, a watchdog that wakes an object
// restarted with no client to wake it (recovery goes on then).
import { findDecisionTree } from "../../../agent/decision-trees";
import type { McpToolbox } from "../../../agent/tools/mcp";
import type { ResumePoint } from "../../../agent/turn/resume";
import { runTurn } from "../../../agent/turn/run-turn";
import { afterFinalFrames } from "../sockets/final-frames";
import { alarmBy } from "../triggers/alarm";
import type { ConversationTitles } from "./conversation-titles";
import { faultPauses } from "./fault-pauses";
import type { FinishPush } from "./finish-push";
import { rememberModel } from "./hello-model";
import { NO_USAGE, type PlanFor, type RunningTurn, stoppedByUser } from "./running-turn";
import type { ParentLink } from "./subagents";
import { type TurnParts, turnIO, turnSetup } from "./turn-io";
import type { TurnOrigin, TurnRecord } from "./turn-marker";
import { modelRef } from "./turn-model";
import type { Wait } from "./waits/wait";

/** While a turn runs, an alarm this far ahead wakes the object after a restart that no client notices. */
const WATCHDOG_MS = 10_000;

export interface Launch {
  plan: PlanFor;
  /** Persists what the turn answers (the user's message, an answer…), after its record is begun. */
  persistInput(): Promise<void>;
  origin: TurnOrigin;
  /** Set when the turn is a subagent's: every frame also goes to the parent. */
  parent?: ParentLink;
  /** A turn cut short by a restart, going on under its record from its point. */
  resumed?: { record: TurnRecord; point: ResumePoint };
}

export class TurnLifecycle {
  /** The running turn, if any. */
  current: RunningTurn | undefined;
  /** Turns cut short by a restart go on (TURN_RECOVERY, default on). */
  readonly recovery: boolean;
  /** The watchdog alarm set last (armAlarm), so the turn's end can take it back. */
  private watchdogAt: number | undefined;
  /** Told when a turn has ended (scheduled-runs.ts starts a waiting run and re-arms the alarm). */
  private idle: { turnEnded(): void } | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly parts: TurnParts,
    private readonly waits: readonly Wait[],
    private readonly titles: ConversationTitles,
    private readonly push: FinishPush,
  ) {
    this.recovery = parts.env.TURN_RECOVERY?.trim().toLowerCase() !== "off";
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** `listener` is told after every turn's end. */
  whenIdle(listener: { turnEnded(): void }): void {
    this.idle = listener;
  }

  async launch({ plan, persistInput, origin, parent, resumed }: Launch): Promise<RunningTurn> {
    const turn: RunningTurn = {
      abort: new AbortController(),
      done: Promise.resolve(),
      live: undefined,
      origin,
      ...(parent ? { parent } : {}),
      ...(resumed ? { resume: resumed.point, resuming: true } : {}),
    };
    this.current = turn;
    this.parts.io.index.hold();
    const end = () => this.end(turn);
    try {
      if (resumed) await this.parts.marker.adopt(resumed.record);
      else await this.parts.marker.begin(origin);
      await persistInput();
    } catch (error) {
      await end();
      throw error;
    }
    // A Stop pressed just before the restart still stops the turn.
    if (resumed?.record.stop_requested) turn.abort.abort(stoppedByUser());
    void this.armAlarm().catch(() => undefined);
    // The index learns of the new message (title, preview, search) while the turn runs, once the first
    // model request is answered (a D1 batch sent as that request leaves would hold it back); the rest at
    // its end.
    turn.indexInput = true;
    turn.done = this.run(turn, plan).finally(end);
    this.ctx.waitUntil(turn.done);
    return turn;
  }

  private async end(turn: RunningTurn): Promise<void> {
    this.current = undefined;
    this.parts.meter.save();
    await this.parts.marker.end();
    for (const wait of this.waits) if (wait.turnEnded) await wait.turnEnded();
    this.parts.io.index.release();
    // After the turn's end was sent: the title request never holds a turn back (a subagent's is never
    // named), nor does the notification of a turn that ended out of sight.
    if (turn.origin.kind === "user") {
      this.titles.afterTurn(turn.llm);
      this.push.afterTurn(turn.outcome?.reason);
    }
    // The alarm waits for the final frames to leave (afterFinalFrames: an alarm write right after the
    // turn's last commit would hold them): the watchdog goes first; a turn begun meanwhile (which found
    // it set and earlier than its own) arms its own once it has gone; then the schedule runner re-arms.
    const watchdog = this.watchdogAt;
    this.watchdogAt = undefined;
    void afterFinalFrames(this.ctx.storage, async () => {
      if (watchdog !== undefined && (await this.disarm(watchdog)) && this.current) await this.armAlarm();
      this.idle?.turnEnded();
      // The turn's use of the operator's model, held back while it ran (usage-meter.ts): one D1 batch,
      // after the alarm's re-arm has begun.
      void turn.llm?.meter?.flush();
    }).catch((error) => console.error("ConversationObject", this.ctx.id.toString(), "after the turn's end", error));
  }

  private async run(turn: RunningTurn, planFor: PlanFor): Promise<void> {
    let mcp: McpToolbox | undefined;
    try {
      const plan = await planFor(turn.abort.signal);
      mcp = plan.mcp;
      // Test builds may hold chosen tools after their effect (fault-pauses.ts); a resumed call never is.
      const tools = turn.resume ? plan.tools : faultPauses(plan.tools, this.parts.env);
      turn.llm = plan.llm;
      this.parts.marker.planned(modelRef(plan.llm), plan.config);
      const tree = findDecisionTree(plan.config.decisionTree) ?? findDecisionTree("default");
      if (!tree) throw new Error("no decision tree registered");
      rememberModel(this.ctx.storage.sql, plan.llm);
      turn.outcome = await runTurn(turnIO(turn, plan, this.parts), turnSetup(turn, plan, { tree, tools }, this.parts));
    } catch (error) {
      // The loop turns model and tool failures into a saved answer; reaching here means storage failed.
      console.error("ConversationObject", this.ctx.id.toString(), "turn failed", error);
      const { frames } = this.parts.io;
      frames.send({ type: "error", code: "internal", message: "The turn failed unexpectedly; your message is saved" });
      frames.send({ type: "response_complete", termination_reason: "llm_error", steps: 0, usage: NO_USAGE });
    } finally {
      // Not awaited: closing lets cancellation notices reach the servers first (mcp/client.ts), which
      // the next turn need not wait for.
      void mcp?.close();
    }
  }

  stop(): boolean {
    if (!this.current) return false;
    // Kept, so a restart right after the Stop still stops the turn.
    this.parts.marker.stopRequested();
    this.current.abort.abort(stoppedByUser());
    return true;
  }

  /**
   * The session or token that started the running turn was revoked (or pressed Stop): nothing more runs
   * on its behalf. Returns the stopped turn's end, or undefined when no turn of theirs runs.
   */
  stopIfStartedBy(credentials: ReadonlySet<string>): Promise<void> | undefined {
    const turn = this.current;
    const origin = turn?.origin;
    if (origin?.kind !== "user" || !origin.started_by || !credentials.has(origin.started_by)) return;
    this.stop();
    return turn?.done.catch(() => undefined);
  }

  async stopAndWait(): Promise<void> {
    const turn = this.current;
    if (!turn) return;
    this.stop();
    await turn.done.catch(() => undefined);
  }

  /** The object's alarm fired: every wait past its deadline gives up, and the next alarm is set. */
  async onAlarm(): Promise<void> {
    for (const wait of this.waits) await wait.expire(Date.now());
    await this.armAlarm();
  }

  /** The next alarm the turn needs: the earliest deadline of a wait, and the watchdog while a turn runs. */
  private async armAlarm(): Promise<void> {
    const deadlines: (number | undefined)[] = [];
    for (const wait of this.waits) deadlines.push(await wait.nextDeadline());
    const now = Date.now();
    const watchdog = this.current && this.recovery ? now + WATCHDOG_MS : undefined;
    const due = [...deadlines, watchdog].filter((t): t is number => !!t && t > now);
    if (!due.length) return;
    const at = Math.min(...due);
    if (await alarmBy(this.ctx.storage, at)) this.watchdogAt = at === watchdog ? at : undefined;
  }

  /** The turn ended: its watchdog (set for `at`), if still the alarm, is not needed any more. Whether it was. */
  private async disarm(at: number): Promise<boolean> {
    if ((await this.ctx.storage.getAlarm()) !== at) return false;
    await this.ctx.storage.deleteAlarm();
    return true;
  }
}
