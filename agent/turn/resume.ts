// A turn cut short by a restart goes on (docs/architecture.md "Deploys"): its host keeps a checkpoint
// of the turn's progress and of the step's tool calls (TurnProgress, written before each model request
// and before each step's tools run), and a fresh instance hands it back as a ResumePoint. The turn then
// gives each call that has no result one (re-run when that cannot do anything twice, re-attached when
// the tool can pick up its own work, otherwise reported to the model as unknown), writes the interrupt
// item, keeps what was left of a retry's wait, and goes on under its original limits.

import type { Message, ToolMessage } from "../../protocol";
import type { ModelToolCall } from "../llm/call-model";
import { sleep } from "../llm/retry";
import { type AgentState, type BudgetKind, elapsedMs } from "../state";
import { interruptItem } from "../system-items/interrupt";
import { REQUEST_INPUT } from "../tools/request-input";
import { type AgentTool, ToolError } from "../tools/tool";
import { runStepTools } from "./step-tools";
import type { Turn } from "./turn";

/** A turn cut short this many times is not resumed again: it ends with a plain explanation. */
export const MAX_INTERRUPTIONS = 3;

/** What a turn has done so far, as its checkpoint keeps it. */
export interface TurnProgress {
  /** Steps whose model call answered: a step cut before its answer is asked again. */
  step: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens?: number;
  reasoning_tokens?: number;
  /** Time the turn has run, waits for the user excluded: the time a restart takes is not counted. */
  elapsed_ms: number;
  warned: BudgetKind[];
  loop_warnings: string[];
  consecutive_errors: number;
  discarded_subagents: number;
}

/** A step's tool call as the checkpoint keeps it, before it runs. */
export interface RecordedCall {
  call_id: string;
  tool: string;
  args: unknown;
  step: number;
  problem?: "invalid_args";
}

export interface ResumePoint {
  progress: TurnProgress;
  /** The calls of step `progress.step` that have no result in the log. */
  openCalls: RecordedCall[];
  /** Times the turn has been cut short, this one included. */
  interruptions: number;
  /** When the turn started (ISO), for the interrupt item. */
  startedAt?: string;
  /** A model retry's wait that was under way when the turn was cut (epoch ms): it is waited out. */
  retryAt?: number;
  /**
   * Open calls that were waiting for the user's approval and never ran: they wait again (or take the
   * decision made meanwhile) and run if approved, whatever kind of tool they call.
   */
  neverRan?: ReadonlySet<string>;
}

/** What the loop tells its host at a checkpoint: the progress, and the step's calls before they run. */
export interface Checkpoint {
  progress: TurnProgress;
  /** The step's tool calls, about to run; an empty list once the step's results are in the log. */
  calls?: RecordedCall[];
  /** A model retry waits until then (epoch ms). */
  retryAt?: number;
}

/** A model's tool call as the checkpoint records it, in `step`; and back (modelCall). */
export const recordedCall = (c: ModelToolCall, step: number): RecordedCall => ({
  call_id: c.callId,
  tool: c.tool,
  args: c.args,
  step,
  ...(c.problem ? { problem: c.problem } : {}),
});

const modelCall = (c: RecordedCall): ModelToolCall => ({
  callId: c.call_id,
  tool: c.tool,
  args: c.args,
  ...(c.problem ? { problem: c.problem } : {}),
});

/** The results the running turn has logged so far: the tool messages after the path's last user message. */
export function resultsSoFar(path: readonly Message[]): ToolMessage[] {
  const found: ToolMessage[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const m = path[i];
    if (!m || m.role === "user") break;
    if (m.role === "tool") found.push(m);
  }
  return found;
}

/** The ids a resumed turn's calls already have: those with results, and the open ones about to get theirs. */
export const callIdsSoFar = (path: readonly Message[], point: ResumePoint): string[] => [
  ...resultsSoFar(path).map((m) => m.call_id),
  ...point.openCalls.map((c) => c.call_id),
];

export function progressOf(turn: Turn, step: number): TurnProgress {
  const s = turn.state;
  return {
    step,
    input_tokens: s.inputTokens,
    output_tokens: s.outputTokens,
    ...(s.cachedInputTokens !== undefined ? { cached_input_tokens: s.cachedInputTokens } : {}),
    ...(s.reasoningTokens !== undefined ? { reasoning_tokens: s.reasoningTokens } : {}),
    elapsed_ms: Math.max(0, elapsedMs(s, Date.now())),
    warned: s.warned,
    loop_warnings: s.loopWarnings,
    consecutive_errors: s.consecutiveErrors,
    discarded_subagents: s.discardedSubagents,
  };
}

/** The state a resumed turn starts from: its steps, tokens, warnings and time so far. */
export function restoredState(fresh: AgentState, p: TurnProgress, now = Date.now()): AgentState {
  return {
    ...fresh,
    step: p.step,
    inputTokens: p.input_tokens,
    outputTokens: p.output_tokens,
    ...(p.cached_input_tokens !== undefined ? { cachedInputTokens: p.cached_input_tokens } : {}),
    ...(p.reasoning_tokens !== undefined ? { reasoningTokens: p.reasoning_tokens } : {}),
    startedAt: now - p.elapsed_ms,
    now,
    warned: p.warned,
    loopWarnings: p.loop_warnings,
    consecutiveErrors: p.consecutive_errors,
    discardedSubagents: p.discarded_subagents,
  };
}

export const NOT_RERUN =
  "This call was running when the conversation's server restarted. It was not run again because it may change something: it may or may not have taken effect. Check before calling it again.";

/**
 * How a call cut short goes on: a read, an idempotent write and a question (which waits on the same
 * stored question) run again; a tool that can pick up its own work resumes; anything else is not re-run.
 */
export function recoveredTool(tool: AgentTool, neverRan: ReadonlySet<string> = new Set()): AgentTool {
  if (tool.readOnly || tool.idempotent || tool.name === REQUEST_INPUT) return tool;
  const resume = tool.resume;
  return {
    ...tool,
    execute: async (args, ctx) => {
      // A call that waited for approval when the turn was cut had not started: it runs as new.
      if (neverRan.has(ctx.callId)) return tool.execute(args, ctx);
      if (resume) return resume(args, ctx);
      throw new ToolError(NOT_RERUN);
    },
  };
}

/**
 * Picks the turn up where it was cut: the open calls get their results (in the step they belong to),
 * then the interrupt item, then what was left of a retry's wait. False when the turn must end now
 * (its question was not answered in time).
 */
export async function resumeTurn(turn: Turn, point: ResumePoint): Promise<boolean> {
  turn.send({
    type: "agent_update",
    update_type: "agent_resumed",
    step: turn.state.step,
    interruptions: point.interruptions,
  });
  if (point.openCalls.length) {
    const calls = point.openCalls.map(modelCall);
    const tools = new Map([...turn.tools].map(([name, tool]) => [name, recoveredTool(tool, point.neverRan)]));
    if (!(await runStepTools(turn, calls, { tools, ...(point.neverRan ? { neverRan: point.neverRan } : {}) })))
      return false;
  }
  await turn.io.append({
    role: "system",
    source: "Turn Control",
    severity: "warning",
    item: interruptItem(point.startedAt, point.openCalls.length, { resumed: true }),
  });
  // Cut short by a Stop or the time limit, the loop sees why at its next check.
  if (point.retryAt && point.retryAt > Date.now())
    await sleep(point.retryAt - Date.now(), turn.signal).catch(() => undefined);
  return true;
}
