// Finish: the turn's answer is saved with an explanation of why it ended (explanations.ts). A turn
// stopped by a limit first gets one tool-less wrap-up call, so the user gets the best answer so far.
import type { Reasoning, TerminationReason } from "../../protocol";
import { composeFinal } from "../explanations";
import { render } from "../prompts/prompts.generated";
import { type AgentState, elapsedMs, tokensUsed, usageOf } from "../state";
import { firstStop } from "../termination";
import { answerSources } from "../web/sources";
import { callModelPhase } from "./model-call";
import type { Turn, TurnOutcome } from "./turn";

const WRAP_UP_REASONS: ReadonlySet<TerminationReason> = new Set(["max_iterations", "no_progress", "error_limit"]);
const WRAP_UP_MIN_MS = 5_000;

export async function finishTurn(turn: Turn): Promise<TurnOutcome> {
  turn.early.discard();
  const state = turn.sync();
  const reason: TerminationReason = turn.answer !== undefined ? "completed" : (firstStop(state) ?? "completed");
  const text = turn.answer ?? (await lastWords(turn, reason));
  const reasoning = turn.answerReasoning ?? keptReasoning(turn);
  if (reason === "token_budget" || reason === "timeout")
    turn.io.emit({
      type: "budget.exceeded",
      severity: "critical",
      source: "Budget Monitor",
      payload: exceededPayload(reason, turn.state),
    });
  const { content, note } = composeFinal(text, reason, turn.state, { outputLimited: turn.outputLimited });
  const sources = answerSources(turn.io.messages(), text);
  await turn.io.append({
    role: "agent",
    content,
    ...(note ? { note } : {}),
    step: turn.state.step,
    phase: "final",
    termination_reason: reason,
    usage: usageOf(turn.state),
    ...(reasoning ? { reasoning } : {}),
    ...(turn.setup.llm ? { model: turn.setup.llm.info } : {}),
    ...(sources.length ? { sources } : {}),
  });
  turn.clock.dispose();
  const { step } = turn.state;
  turn.io.emit({
    type: "turn.end",
    severity: "info",
    source: "Turn Control",
    payload: { termination_reason: reason, steps: step, tokens: turn.tokensUsed },
  });
  await turn.io.flush("turn_end");
  const usage = usageOf(turn.state);
  if (reason === "user_cancelled") turn.send({ type: "agent_update", update_type: "agent_stopped", step });
  turn.send({ type: "agent_update", update_type: "agent_completion", steps: step, termination_reason: reason });
  turn.send({ type: "response_complete", termination_reason: reason, steps: step, usage });
  return { reason, steps: step, usage };
}

/** A turn with no answer keeps what was streamed, or what a wrap-up call writes when a limit ended it. */
async function lastWords(turn: Turn, reason: TerminationReason): Promise<string> {
  if (!WRAP_UP_REASONS.has(reason) || !canWrapUp(turn.state)) return turn.partial;
  const why =
    reason === "max_iterations"
      ? "the iteration limit is reached."
      : reason === "no_progress"
        ? "you were repeating the same action."
        : "too many tool calls failed in a row.";
  // Still under the turn's clock: a slow wrap-up is cut at the time limit, keeping what it streamed.
  const wrap = await callModelPhase(turn, { tools: false, instruction: render("wrap-up", { why }) });
  turn.outputLimited = wrap?.finishReason === "length";
  turn.answerReasoning = wrap?.reasoning;
  return wrap?.text ?? turn.partial;
}

/** What a call cut short (Stop, a limit, a failure) had reasoned so far: kept, as its text is. */
function keptReasoning(turn: Turn): Reasoning | undefined {
  const partial = turn.partialReasoning;
  if (!partial?.text) return undefined;
  return { text: partial.text, duration_ms: Math.max(0, Date.now() - partial.started) };
}

function canWrapUp(s: AgentState): boolean {
  const c = s.config;
  const msLeft = c.timeoutSeconds * 1000 - elapsedMs(s, Date.now());
  return !s.cancelled && tokensUsed(s) < c.tokenBudget && msLeft > WRAP_UP_MIN_MS;
}

function exceededPayload(reason: TerminationReason, s: AgentState) {
  return reason === "token_budget"
    ? { budget: "tokens", used: tokensUsed(s), limit: s.config.tokenBudget }
    : { budget: "time", used: Math.round(elapsedMs(s) / 1000), limit: s.config.timeoutSeconds };
}
