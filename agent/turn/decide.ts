// Decide: the tree judges a phase's result (the goal reached, or go on), and the text it shows for
// the phase goes to the tabs and into the log.
import type { PhasePlan } from "../decision-trees/decision-tree";
import type { ModelCallResult } from "../llm/call-model";
import type { Turn } from "./turn";

/** True when the phase gave the turn's answer. */
export async function decide(turn: Turn, plan: PhasePlan, result: ModelCallResult): Promise<boolean> {
  const verdict = turn.tree.onPhaseResult(turn.state, {
    plan,
    text: result.text,
    toolCallCount: result.toolCalls.length,
  });
  turn.state = verdict.state;
  turn.partial = "";
  turn.partialReasoning = undefined;
  const step = turn.state.step;
  const reasoning = result.reasoning ? { reasoning: result.reasoning } : {};
  if (plan.phase === "reason")
    turn.send({ type: "agent_update", update_type: "agent_reason", content: verdict.display, step });
  if (plan.phase === "observe")
    turn.send({ type: "agent_update", update_type: "agent_observe", content: verdict.display, step });
  const answered = verdict.answer !== undefined;
  const shown = verdict.display.trim() && verdict.display !== verdict.answer;
  // A step that only called tools still keeps its reasoning: on a message of its own, with no text.
  if (shown || (result.reasoning && !answered)) {
    await turn.io.append({
      role: "agent",
      content: shown ? verdict.display : "",
      step,
      ...(verdict.phase ? { phase: verdict.phase } : {}),
      ...reasoning,
    });
  }
  if (verdict.answer === undefined) return false;
  turn.answer = verdict.answer;
  // Shown above with the step's text, or saved with the answer.
  turn.answerReasoning = shown ? undefined : result.reasoning;
  turn.outputLimited = result.finishReason === "length";
  return true;
}
