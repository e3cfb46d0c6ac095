// Run the step's tools: the model's calls go to the executor (tools/executor.ts), and each outcome
// goes back to the tree and the loop detector. Only a question the user left unanswered ends the turn.
import type { ModelToolCall } from "../llm/call-model";
import { elapsedMs } from "../state";
import { approvalKeyOf } from "../tools/approval";
import { DELEGATE } from "../tools/delegate";
import { runToolCalls } from "../tools/executor";
import type { AgentTool } from "../tools/tool";
import type { Turn } from "./turn";
import { warnLoops } from "./warnings";

/**
 * False when the turn must end (the user did not answer in time). `resumed`: the calls a restart cut
 * short, run with the tools as recovery sees them (resume.ts); they were recorded before they first ran.
 */
export async function runStepTools(
  turn: Turn,
  answered: readonly ModelToolCall[],
  resumed?: { tools: ReadonlyMap<string, AgentTool>; neverRan?: ReadonlySet<string> },
): Promise<boolean> {
  const { config, io } = turn;
  const askElicitation = io.askElicitation?.bind(io);
  /** How long a wait for the user lasts (a question, an approval, a server's question). */
  const timeout_s = turn.setup.config.requestInputTimeoutSeconds;
  // Resumed calls were named when they first came back.
  const calls = resumed ? answered : turn.callIds.name(answered, turn.state.step, turn.callsThisStep);
  // Recorded before any runs: a restart finds each call and whether its result is in the log.
  if (!resumed) turn.checkpoint(turn.state.step, calls);
  const outcomes = await runToolCalls(calls, {
    tools: resumed?.tools ?? turn.tools,
    base: {
      ...turn.setup.toolContext,
      remaining: () => ({
        tokens: config.tokenBudget - turn.tokensUsed,
        seconds: config.timeoutSeconds - elapsedMs(turn.state, Date.now()) / 1000,
        iterations: config.maxIterations - turn.state.step + 1,
      }),
      chargeTokens: (usage) => turn.charge(usage),
    },
    signal: turn.signal,
    step: turn.state.step,
    maxParallel: config.maxParallelTools,
    maxCalls: config.maxToolCallsPerTurn,
    // Calls resumed after a restart already counted against the step's cap when they first ran.
    callsBefore: resumed ? 0 : turn.callsThisStep,
    started: (call, args, signal) => turn.early.take(call, args, signal),
    send: (frame) => turn.send(frame),
    append: io.append,
    emit: io.emit,
    approval: turn.setup.approvals && {
      // A call resumed after a restart asks only if it was waiting for approval then (it never ran);
      // one that was running had been approved already, or needed no approval.
      needs: (tool, call) =>
        resumed ? (resumed.neverRan?.has(call.callId) ?? false) : (turn.setup.approvals?.needs(tool) ?? false),
      ...(io.askApproval && {
        ask: async (call, args, signal) => {
          const tool = turn.tools.get(call.tool);
          const key = tool ? approvalKeyOf(tool) : call.tool;
          const request = { call_id: call.callId, tool: call.tool, args, step: turn.state.step, key, timeout_s };
          const decided = await turn.clock.paused(async () => io.askApproval?.(request, signal));
          if (decided?.decision === "approved" && decided.always_allow && tool) turn.setup.approvals?.allow(tool);
          return decided ?? { decision: "aborted" };
        },
      }),
    },
    ...(askElicitation && {
      elicit: (ask, call, signal) =>
        turn.clock.paused(() => askElicitation({ ...ask, call_id: call.callId, step: call.step, timeout_s }, signal)),
    }),
    // Only waiting for the user stops the clock; tools (subagents included) spend the turn's time.
    askUser: (question, step, signal, callId) => turn.clock.paused(() => io.askUser(question, step, signal, callId)),
  });
  turn.early.discard();
  if (!resumed) turn.callsThisStep += calls.length;
  let state = turn.state;
  for (const o of outcomes) {
    state = {
      ...state,
      pausedMs: state.pausedMs + o.waitedMs,
      inputTimedOut: state.inputTimedOut || !!o.inputTimedOut,
    };
    if (!o.skipped)
      state = turn.tree.onToolResult(state, {
        tool: o.tool,
        args: o.args,
        ok: o.status === "success",
        error: o.error,
        result: o.result,
      });
    if (o.tool === DELEGATE && o.status !== "success" && turn.signal.aborted)
      state = { ...state, discardedSubagents: state.discardedSubagents + 1 };
  }
  turn.state = warnLoops(state, io.emit);
  await io.flush("after_tool");
  if (!turn.state.inputTimedOut) return true;
  turn.send({ type: "agent_update", update_type: "agent_request_input_timeout", step: turn.state.step });
  return false;
}
