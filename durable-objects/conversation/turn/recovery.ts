// What a fresh instance does with a turn its predecessor left running (the record is still in storage,
// but no turn runs here). By default the turn goes on (agent/turn/resume.ts) from its record: its open
// calls are those of the step's recorded calls with no result in the log. A turn cut short for the
// third time ends with a plain explanation instead. With recovery turned off (TURN_RECOVERY=off), or for
// a record from before version 2, the turn ends as it always did: its open calls get a cancelled
// result, so the history stays valid for the provider, and an interrupt item tells the agent and the
// user; a question waiting for its answer then still carries the turn on when answered.

import { composeFinal } from "../../../agent/explanations";
import { createState, usageOf } from "../../../agent/state";
import { interruptItem } from "../../../agent/system-items/interrupt";
import type { FramePort } from "../../../agent/turn/io";
import {
  MAX_INTERRUPTIONS,
  type RecordedCall,
  type ResumePoint,
  restoredState,
  resultsSoFar,
  type TurnProgress,
} from "../../../agent/turn/resume";
import { DEFAULT_AGENT_CONFIG, type Message, type MessageDraft } from "../../../protocol";
import type { ChildOutcome } from "./subagents";
import { isTurnRecord, type TurnMarkerStore, type TurnRecord } from "./turn-marker";
import type { PendingApprovals } from "./waits/pending-approvals";
import type { PendingInput } from "./waits/pending-input";

export interface RecoveryIO {
  marker: TurnMarkerStore;
  pending: PendingInput;
  approvals: PendingApprovals;
  messages(): readonly Message[];
  append(draft: MessageDraft): Promise<unknown>;
  frames: FramePort;
  /** Recovery is on (the default; TURN_RECOVERY=off turns it off). */
  enabled: boolean;
  /** Goes on with the turn from `point`. */
  resume(record: TurnRecord, point: ResumePoint): Promise<void>;
  /** A turn that ended here: a subagent's parent that re-attaches gets this outcome. */
  ended(record: TurnRecord, outcome: ChildOutcome): Promise<void>;
}

const NO_PROGRESS: TurnProgress = {
  step: 0,
  input_tokens: 0,
  output_tokens: 0,
  elapsed_ms: 0,
  warned: [],
  loop_warnings: [],
  consecutive_errors: 0,
  discarded_subagents: 0,
};

/** True when a turn was found cut short (and dealt with). */
export async function recoverInterruptedTurn(io: RecoveryIO): Promise<boolean> {
  const stored = await io.marker.stored();
  if (!stored) return false;
  if (!isTurnRecord(stored) || !io.enabled) {
    // A question left waiting carries its turn on when answered (TurnStarts.answer).
    if (await io.pending.current()) return false;
    const open = isTurnRecord(stored)
      ? openCalls(stored, io.messages())
      : Object.entries(stored.calls).map(([call_id, call]) => ({ call_id, ...call }));
    await closeCalls(io, open, "Cancelled: the turn was interrupted before this call finished");
    await appendInterrupt(io, stored.started_at, open.length);
    await io.approvals.clear();
    await io.marker.end();
    return true;
  }
  const open = openCalls(stored, io.messages());
  const interruptions = stored.interruptions + 1;
  if (interruptions >= MAX_INTERRUPTIONS) {
    await giveUp(io, stored, open);
    return true;
  }
  await io.resume(stored, {
    progress: stored.progress ?? NO_PROGRESS,
    openCalls: open,
    interruptions,
    startedAt: stored.started_at,
    ...(stored.retry_at ? { retryAt: stored.retry_at } : {}),
    neverRan: await io.approvals.neverRan(),
  });
  return true;
}

/** The recorded calls with no result in the log (the turn's results all follow its last user message). */
export function openCalls(record: TurnRecord, path: readonly Message[]): RecordedCall[] {
  const done = new Set(resultsSoFar(path).map((m) => `${m.step}/${m.call_id}`));
  return record.calls.filter((c) => !done.has(`${c.step}/${c.call_id}`));
}

async function closeCalls(io: RecoveryIO, calls: readonly RecordedCall[], error: string): Promise<void> {
  for (const call of calls)
    await io.append({
      role: "tool",
      call_id: call.call_id,
      tool: call.tool,
      args: call.args,
      status: "error",
      error,
      step: call.step,
      duration_ms: 0,
    });
}

const appendInterrupt = (io: RecoveryIO, startedAt: string | undefined, cancelled: number) =>
  io.append({
    role: "system",
    source: "Turn Control",
    severity: "warning",
    item: interruptItem(startedAt, cancelled),
  });

/** The third cut: no more tries (a step may be what crashes the object), and the user is told why. */
async function giveUp(io: RecoveryIO, record: TurnRecord, open: readonly RecordedCall[]): Promise<void> {
  await closeCalls(
    io,
    open,
    `Not run again: the conversation's server restarted ${MAX_INTERRUPTIONS} times during this turn`,
  );
  await appendInterrupt(io, record.started_at, open.length);
  const state = restoredState(createState(record.config ?? DEFAULT_AGENT_CONFIG), record.progress ?? NO_PROGRESS);
  const { content, note } = composeFinal("", "interrupted", state);
  const usage = usageOf(state);
  await io.append({
    role: "agent",
    content,
    ...(note ? { note } : {}),
    step: state.step,
    phase: "final",
    termination_reason: "interrupted",
    usage,
  });
  if (await io.pending.current()) await io.pending.clear();
  await io.approvals.clear();
  await io.ended(record, { answer: content, termination_reason: "interrupted", steps: state.step, usage });
  await io.marker.end();
  io.frames.send({
    type: "agent_update",
    update_type: "agent_completion",
    steps: state.step,
    termination_reason: "interrupted",
  });
  io.frames.send({ type: "response_complete", termination_reason: "interrupted", steps: state.step, usage });
}
