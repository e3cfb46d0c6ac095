// The running turn's record in Durable Object storage: written when a turn starts, kept current at the
// loop's checkpoints (agent/turn/resume.ts: before each model request, and before each step's tool
// calls run), removed when the turn ends. Finding it in a fresh instance means the turn was cut short by
// a restart; the record says how to go on (recovery.ts): who started it and with what, its model and
// limits, its progress, the step's calls, the subagents its delegate calls started, whether Stop was
// pressed, and how many times it was cut already.
// Writes are not awaited: the output gate holds every request the turn makes next (the model call, a
// tool's D1 or MCP request) until they commit, so the record is never behind what the turn did.
import type { Checkpoint, RecordedCall, TurnProgress } from "../../../agent/turn/resume";
import type { AgentConfig, ChatFrame, ModelRef } from "../../../protocol";
import type { ChildRequest } from "./subagents";

export const RUNNING_TURN_KEY = "running-turn";

/** A call of the step that was running when the turn was cut (the record before version 2). */
export interface OpenCall {
  tool: string;
  args: unknown;
  step: number;
}

/** What a turn's frame may set for that turn (chat and regenerate alike). */
export type TurnOptions = Pick<ChatFrame, "agent_max_steps" | "decision_tree">;

/** Who started the turn, and with what: enough to plan it again. */
export type TurnOrigin =
  /** `started_by`: the credential (credentialKey) of the socket that started it; its revocation stops it. */
  { kind: "user"; options: TurnOptions; started_by?: string } | { kind: "subagent"; request: ChildRequest };

/** The subagent a delegate call started (its own object goes on with its turn). */
export interface ChildRef {
  conversation_id: string;
  pod_name: string;
}

export interface TurnRecord {
  version: 2;
  /** Stays the same across restarts: built-in writes' idempotency keys start from it. */
  turn_id: string;
  started_at: string;
  origin: TurnOrigin;
  /** The model and the limits the turn runs with, once its settings are read. */
  model?: ModelRef;
  config?: AgentConfig;
  progress?: TurnProgress;
  /** The current step's tool calls, recorded before they run. */
  calls: RecordedCall[];
  children: Record<string, ChildRef>;
  /** Times the turn was cut short and resumed. */
  interruptions: number;
  stop_requested?: boolean;
  retry_at?: number;
}

/** What an instance from before version 2 left: only the calls with effects that had not finished. */
export interface LegacyMarker {
  started_at: string;
  calls: Record<string, OpenCall>;
}

export type TurnMarker = TurnRecord | LegacyMarker;

export const isTurnRecord = (m: TurnMarker): m is TurnRecord => "version" in m && m.version === 2;

export class TurnMarkerStore {
  private record: TurnRecord | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** A new turn: its record is durable before its input is persisted. */
  async begin(origin: TurnOrigin): Promise<TurnRecord> {
    this.record = {
      version: 2,
      turn_id: crypto.randomUUID(),
      started_at: new Date().toISOString(),
      origin,
      calls: [],
      children: {},
      interruptions: 0,
    };
    await this.storage.put(RUNNING_TURN_KEY, this.record);
    return this.record;
  }

  /** A turn cut short goes on under its record, with one more interruption counted. */
  async adopt(record: TurnRecord): Promise<void> {
    this.record = { ...record, interruptions: record.interruptions + 1 };
    await this.storage.put(RUNNING_TURN_KEY, this.record);
  }

  get current(): TurnRecord | undefined {
    return this.record;
  }

  /** The model and limits the turn was planned with: a resumed turn keeps them. */
  planned(model: ModelRef, config: AgentConfig): void {
    this.update({ model, config });
  }

  checkpoint(point: Checkpoint): void {
    this.update({
      progress: point.progress,
      ...(point.calls ? { calls: point.calls } : {}),
      retry_at: point.retryAt,
    });
  }

  child(callId: string, child: ChildRef): void {
    if (this.record) this.update({ children: { ...this.record.children, [callId]: child } });
  }

  stopRequested(): void {
    this.update({ stop_requested: true });
  }

  async end(): Promise<void> {
    this.record = undefined;
    await this.storage.delete(RUNNING_TURN_KEY);
  }

  /** The record a previous instance left behind, if any. */
  stored(): Promise<TurnMarker | undefined> {
    return this.storage.get<TurnMarker>(RUNNING_TURN_KEY);
  }

  private update(patch: Partial<TurnRecord>): void {
    if (!this.record) return;
    this.record = { ...this.record, ...patch };
    // A write that fails (a step's calls over the 2 MB a value may hold) leaves the previous record: a
    // restart then asks the step's model call again instead of finding its calls.
    this.storage.put(RUNNING_TURN_KEY, this.record).catch((error) => console.error("turn record not saved", error));
  }
}
