// Runs one step's tool calls: argument validation (invalid_args), unknown tools (unknown_tool), the
// per-call timeout (timeout), at most maxParallelTools at once, at most maxToolCallsPerTurn per step,
// request_input as a pause for the user, and approval: a call of a tool that asks first waits for the
// user's decision (approval.ts), and one not approved ends as an error the model reads. Every call ends as a persisted tool message, so the
// history always pairs a call with its result.
import type { ApprovalDecision, ElicitationRecord, MessageDraft, ServerFrame, ToolErrorType } from "../../protocol";

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

import type { EventDraft } from "../events";
import type { ModelToolCall } from "../llm/call-model";
import { TurnClock } from "../turn/clock";
import type { ApprovalOutcome } from "./approval";
import { type ElicitationAsk, type ElicitationReply, recordOf } from "./elicitation";
import { notApprovedText } from "./not-approved";
import { type InputOutcome, REQUEST_INPUT } from "./request-input";
import { type AgentTool, DEFAULT_TOOL_TIMEOUT_MS, type ToolContext, ToolError } from "./tool";

export interface ToolOutcome {
  callId: string;
  tool: string;
  args: unknown;
  status: "success" | "error" | "timeout";
  errorType?: ToolErrorType;
  result?: unknown;
  error?: string;
  durationMs: number;
  /** Time spent waiting for the user, which no time limit counts. */
  waitedMs: number;
  inputTimedOut?: boolean;
  /** Not run at all (over the per-step cap, or the turn was stopped): no evidence of a loop. */
  skipped?: boolean;
  /** The call waited for the user's approval, and was decided so. */
  approval?: ApprovalDecision;
  /** What an MCP server asked the user during the call, and how it was answered. */
  elicitations?: ElicitationRecord[];
}

export interface ToolRunContext {
  tools: ReadonlyMap<string, AgentTool>;
  base: Omit<ToolContext, "signal" | "step" | "callId">;
  signal: AbortSignal;
  step: number;
  maxParallel: number;
  /** At most this many calls run per step; `callsBefore` of them already ran in this step's earlier phases. */
  maxCalls: number;
  callsBefore?: number;
  /**
   * A read-only call's result already under way with these arguments (agent/turn/early-reads.ts), which
   * `signal` (the call's timeout, Stop) aborts from now on.
   */
  started?(call: ModelToolCall, args: unknown, signal: AbortSignal): Promise<unknown> | undefined;
  send(frame: ServerFrame): void;
  append(draft: MessageDraft): Promise<unknown>;
  emit(event: EventDraft): void;
  askUser(question: string, step: number, signal: AbortSignal, callId: string): Promise<InputOutcome>;
  /** Asks the user for an MCP server during a call; absent where nobody can be asked (a subagent). */
  elicit?(ask: ElicitationAsk, call: { callId: string; step: number }, signal: AbortSignal): Promise<ElicitationReply>;
  /** Calls of tools that ask first wait for the user's decision; absent, no tool asks. */
  approval?: {
    needs(tool: AgentTool, call: ModelToolCall): boolean;
    /** Absent where nobody can be asked (a subagent): such a call is not run. */
    ask?(call: ModelToolCall, args: unknown, signal: AbortSignal): Promise<ApprovalOutcome>;
  };
}

class CallFailure extends Error {
  constructor(
    readonly errorType: ToolErrorType,
    message: string,
    readonly status: "error" | "timeout" = errorType === "timeout" ? "timeout" : "error",
  ) {
    super(message);
  }
}

/** Why a call was cut off: the turn's time limit or a Stop (the loop aborts with a TimeoutError for the former). */
const cancelled = (signal: AbortSignal) =>
  (signal.reason as Error | undefined)?.name === "TimeoutError"
    ? "Cancelled: the turn reached its time limit"
    : "Cancelled: the turn was stopped";

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runToolCalls(calls: readonly ModelToolCall[], ctx: ToolRunContext): Promise<ToolOutcome[]> {
  const outcomes: ToolOutcome[] = new Array(calls.length);
  const share = tokenShare(calls, ctx);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < calls.length; i = next++) {
      const call = calls[i];
      if (!call) continue;
      try {
        outcomes[i] = await runOne(call, (ctx.callsBefore ?? 0) + i >= ctx.maxCalls, share.context(call));
      } finally {
        share.done(call);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.maxParallel, calls.length)) }, worker));
  return outcomes;
}

/**
 * Calls that spend the turn's tokens themselves (subagents) split what is left between those of the
 * step that have not finished yet: two parallel subagents each offered all of it could together
 * spend twice the budget. One that finishes first leaves its unspent share to the others.
 */
function tokenShare(calls: readonly ModelToolCall[], ctx: ToolRunContext) {
  const spends = (call: ModelToolCall) => ctx.tools.get(call.tool)?.spendsTurnTokens === true;
  let unfinished = calls.filter(spends).length;
  const remaining = ctx.base.remaining;
  const shared: ToolRunContext = {
    ...ctx,
    base: {
      ...ctx.base,
      ...(remaining && {
        remaining: () => {
          const left = remaining();
          return { ...left, tokens: Math.floor(left.tokens / Math.max(1, unfinished)) };
        },
      }),
    },
  };
  return {
    context: (call: ModelToolCall) => (spends(call) ? shared : ctx),
    done: (call: ModelToolCall) => {
      if (spends(call)) unfinished--;
    },
  };
}

async function runOne(call: ModelToolCall, overCap: boolean, ctx: ToolRunContext): Promise<ToolOutcome> {
  const started = Date.now();
  const outcome: ToolOutcome = {
    callId: call.callId,
    tool: call.tool,
    args: call.args,
    status: "success",
    durationMs: 0,
    waitedMs: 0,
  };
  const after: SystemDraft[] = [];
  ctx.send({ type: "tool_start", call_id: call.callId, tool: call.tool, args: call.args, step: ctx.step });
  ctx.emit({
    type: "tool.pending",
    severity: "debug",
    source: "Tool Executor",
    payload: { tool: call.tool, call_id: call.callId, args: call.args },
  });
  try {
    if (ctx.signal.aborted) {
      outcome.skipped = true;
      throw new CallFailure("error", "Cancelled: the turn was stopped before this call ran");
    }
    if (overCap) {
      outcome.skipped = true;
      throw new CallFailure("error", `Skipped: at most ${ctx.maxCalls} tool calls per step`);
    }
    const tool = ctx.tools.get(call.tool);
    if (!tool) {
      throw new CallFailure(
        "unknown_tool",
        `Unknown tool "${call.tool}". Available: ${[...ctx.tools.keys()].join(", ")}`,
      );
    }
    const parsed = tool.args.safeParse(call.args);
    if (!parsed.success || call.problem === "invalid_args") {
      const issue = parsed.success ? undefined : parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw new CallFailure(
        "invalid_args",
        `Invalid arguments for ${call.tool}: ${where}${issue?.message ?? "not valid JSON"}`,
      );
    }
    if (ctx.approval?.needs(tool, call)) await approve(call, parsed.data, outcome, ctx);
    if (tool.name === REQUEST_INPUT) {
      outcome.result = await ask(parsed.data as { question: string }, outcome, call.callId, ctx);
    } else {
      outcome.result = await execute(tool, parsed.data, call, outcome, ctx, after);
    }
  } catch (error) {
    const failure = error instanceof CallFailure ? error : new CallFailure("error", describeError(error));
    outcome.status = failure.status;
    outcome.errorType = failure.errorType;
    outcome.error = failure.message;
  }
  outcome.durationMs = Date.now() - started - outcome.waitedMs;
  await report(outcome, ctx);
  // What the call asked to say after its result (a subagent's lifecycle), in that order.
  for (const draft of after) await ctx.append(draft);
  return outcome;
}

/** ToolContext.elicit for one call: the user answers with the call's clock paused, and the chat keeps the exchange. */
function elicitFor(
  elicit: NonNullable<ToolRunContext["elicit"]>,
  outcome: ToolOutcome,
  step: number,
  signal: AbortSignal,
  clock: TurnClock,
) {
  return async (ask: ElicitationAsk): Promise<ElicitationReply> => {
    const asked = Date.now();
    try {
      const reply = await clock.paused(() => elicit(ask, { callId: outcome.callId, step }, signal));
      outcome.elicitations = [...(outcome.elicitations ?? []), recordOf(ask, reply)];
      return reply;
    } finally {
      outcome.waitedMs += Date.now() - asked;
    }
  };
}

async function execute(
  tool: AgentTool,
  args: unknown,
  call: ModelToolCall,
  outcome: ToolOutcome,
  ctx: ToolRunContext,
  after: SystemDraft[],
): Promise<unknown> {
  const callId = outcome.callId;
  const timeoutMs = tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  // The call's own limit, paused while the user answers for it; the reason is what an MCP server is told
  // with its cancellation.
  const clock = new TurnClock(timeoutMs, `${tool.name} timed out after ${timeoutMs / 1000} s`);
  const signal = AbortSignal.any([ctx.signal, clock.signal]);
  const started = ctx.started?.(call, args, signal);
  let onAbort: (() => void) | undefined;
  // A tool that ignores its signal still loses the race: the loop never waits past the timeout or a Stop.
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        clock.expired && !ctx.signal.aborted
          ? new CallFailure("timeout", `${tool.name} timed out after ${timeoutMs / 1000} s`)
          : new CallFailure("error", cancelled(ctx.signal)),
      );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const context = {
      ...ctx.base,
      signal,
      step: ctx.step,
      callId,
      after: (d: SystemDraft) => void after.push(d),
      progress: ctx.send,
      emit: ctx.emit,
      ...(ctx.elicit && { elicit: elicitFor(ctx.elicit, outcome, ctx.step, signal, clock) }),
    };
    return await Promise.race([started ?? tool.execute(args, context), aborted]);
  } catch (error) {
    if (error instanceof CallFailure || error instanceof ToolError) throw error;
    throw new CallFailure("error", `${tool.name} failed: ${describeError(error)}`);
  } finally {
    clock.dispose();
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

async function ask(
  args: { question: string },
  outcome: ToolOutcome,
  callId: string,
  ctx: ToolRunContext,
): Promise<unknown> {
  const asked = Date.now();
  const answer = await ctx.askUser(args.question, ctx.step, ctx.signal, callId);
  outcome.waitedMs = Date.now() - asked;
  if (answer.type === "answer") return { answer: answer.content };
  if (answer.type === "timeout") {
    outcome.inputTimedOut = true;
    throw new CallFailure("timeout", "The user did not answer in time");
  }
  throw new CallFailure("error", "Cancelled: the turn was stopped while waiting for the user");
}

/** Waits for the user's decision on the call; a call not approved fails with words the model reads. */
async function approve(call: ModelToolCall, args: unknown, outcome: ToolOutcome, ctx: ToolRunContext): Promise<void> {
  if (!ctx.approval?.ask) throw new CallFailure("error", notApprovedText(call.tool, "unavailable"));
  const asked = Date.now();
  const decided = await ctx.approval.ask(call, args, ctx.signal);
  outcome.waitedMs += Date.now() - asked;
  if (decided.decision === "approved") {
    outcome.approval = "approved";
    return;
  }
  if (decided.decision === "aborted") {
    outcome.skipped = true;
    throw new CallFailure("error", notApprovedText(call.tool, "aborted"));
  }
  outcome.approval = decided.decision;
  throw new CallFailure("error", notApprovedText(call.tool, decided.decision));
}

async function report(o: ToolOutcome, ctx: ToolRunContext): Promise<void> {
  await ctx.append({
    role: "tool",
    call_id: o.callId,
    tool: o.tool,
    args: o.args,
    status: o.status,
    ...(o.status === "success" ? { result: o.result } : { error: o.error }),
    step: ctx.step,
    duration_ms: o.durationMs,
    ...(o.approval ? { approval: o.approval } : {}),
    ...(o.elicitations ? { elicitations: o.elicitations } : {}),
  });
  if (o.status === "success") {
    ctx.send({
      type: "tool_complete",
      call_id: o.callId,
      tool: o.tool,
      result: o.result,
      step: ctx.step,
      duration_ms: o.durationMs,
    });
    ctx.emit({
      type: "tool.success",
      severity: "info",
      source: "Tool Executor",
      payload: { tool: o.tool, call_id: o.callId, duration_ms: o.durationMs },
    });
    return;
  }
  const errorType = o.errorType ?? "error";
  ctx.send({
    type: "tool_error",
    call_id: o.callId,
    tool: o.tool,
    error: o.error ?? "failed",
    error_type: errorType,
    step: ctx.step,
  });
  if (o.skipped && ctx.signal.aborted) return;
  // The user's own No is no failure to report: the result already says it.
  if (o.approval && o.approval !== "approved") return;
  ctx.emit({
    type: errorType === "timeout" ? "tool.timeout" : "tool.failure",
    severity: "error",
    source: "Tool Executor",
    payload: { tool: o.tool, call_id: o.callId, error_type: errorType, error: o.error, args: o.args },
  });
}
