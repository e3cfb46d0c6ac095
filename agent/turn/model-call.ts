// Call the model: the request built from the log (context/request.ts), streamed, its text going out
// as it arrives. A failure becomes state (cancelled, timed out, llm_error), never a throw.

import { MIN_OUTPUT_TOKENS } from "../../protocol";
import { fitRequest } from "../context/request";
import { estimateTokens } from "../context/window";
import type { PhasePlan } from "../decision-trees/decision-tree";
import { callModel, type ModelCallResult } from "../llm/call-model";
import { explainModelError } from "../llm/error-words";
import { QuotaExceeded } from "../llm/metered-model";
import { ModelCallError } from "../llm/model-call-error";
import type { Turn } from "./turn";

/** A failed call in plain words, with what its retries add. */
function failureWords(error: unknown, turn: Turn): string {
  const words = explainModelError(error, turn.setup.llm?.errors);
  const note = error instanceof ModelCallError ? error.retryNote : undefined;
  return note ? `${words} ${note}` : words;
}

/** Reasoning the call streamed before it ended (read through a function: callbacks set it). */
const streamedReasoning = (turn: Turn): string => turn.partialReasoning?.text ?? "";

/** Output tokens the call may write: the model's cap, within what the window leaves after the request. */
function outputCap(turn: Turn, requestTokens: number): number | undefined {
  const cap = turn.setup.llm?.maxOutputTokens;
  if (cap === undefined) return undefined;
  const room = turn.setup.context.budget.window - requestTokens;
  return Math.max(MIN_OUTPUT_TOKENS, Math.min(cap, room));
}

/** A tree's phase, or the wrap-up call that ends a turn stopped by a limit (finish.ts). */
export type CallPlan = PhasePlan | { tools: false; instruction: string };

export async function callModelPhase(turn: Turn, plan: CallPlan): Promise<ModelCallResult | undefined> {
  // Durable reminders are committed to the log first, so this request and every replay include them.
  await turn.io.beforeModelRequest();
  // A restart from here asks this call again: the step counts as answered only once it is; a wrap-up
  // call (no phase) comes after the last step's results.
  turn.checkpoint("phase" in plan ? turn.state.step - 1 : turn.state.step, []);
  // Reads started for an earlier call that the step did not run (it answered, or failed) stop here.
  turn.early.discard();
  turn.partial = "";
  turn.partialReasoning = undefined;
  let sentTokens: number | undefined;
  try {
    const tools = plan.tools ? turn.declarations : undefined;
    const request = await fitRequest(turn.requests, tools, plan.instruction);
    // The compaction made for this request may have spent what was left of the budget: then the
    // request is not sent, and the turn ends on its token budget.
    if (turn.overBudget) return undefined;
    sentTokens = request.size;
    const result = await callModel({
      model: turn.setup.model,
      prompt: request.prompt,
      tools,
      maxOutputTokens: outputCap(turn, request.size),
      signal: turn.signal,
      deadline: turn.clock.deadline,
      onRetry: turn.requests.onRetry,
      onResponseStart: () => turn.io.modelResponding?.(),
      onToolInput: plan.tools ? (callId, tool, args) => turn.early.start(callId, tool, args) : undefined,
      onReasoningDelta: (delta) => {
        turn.partialReasoning ??= { text: "", started: Date.now() };
        turn.partialReasoning.text += delta;
        turn.send({ type: "reasoning_delta", step: turn.state.step, delta });
      },
      onTextDelta: (delta) => {
        turn.partial += delta;
        turn.send({ type: "text_delta", step: turn.state.step, delta });
      },
    });
    turn.charge(result.usage);
    turn.setup.context.meter.observe(request.epoch, request.estimated, result.usage.inputTokens);
    return result;
  } catch (error) {
    // The user's quota on the operator's model is used up: nothing was sent, the turn ends on it.
    if (error instanceof QuotaExceeded) {
      turn.state = { ...turn.state, quotaReached: error.words };
      return undefined;
    }
    const state = turn.sync();
    // A call cut short (Stop, the time limit, a stream that broke after it began) never reports its
    // usage, yet the provider read the request and wrote what was streamed: count the estimate, so
    // the budget and the answer's meter do not say 0.
    const streamed = turn.partial + streamedReasoning(turn);
    const interrupted = state.cancelled || state.timedOut || streamed !== "";
    if (sentTokens !== undefined && interrupted)
      turn.charge({ inputTokens: sentTokens, outputTokens: estimateTokens(streamed) });
    // Plain words (what failed, what to fix), never the provider's raw error: it is saved and shown.
    if (!state.cancelled && !state.timedOut) turn.state = { ...turn.state, llmError: failureWords(error, turn) };
    return undefined;
  }
}
