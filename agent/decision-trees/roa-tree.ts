// The strict reason → act → observe tree (seed 003): each step is a plain model call that plans
// (no tools), a call that acts (tools), and a plain call that observes (no tools). The reason and
// observe replies end with a JSON control block that can finish the turn.
import { render } from "../prompts/prompts.generated";
import type { AgentState } from "../state";
import { baseTree } from "./base-tree";
import { extractControlBlock, ObserveControlSchema, ReasonControlSchema } from "./control-block";
import type { DecisionTree, PhaseResult, PhaseVerdict } from "./decision-tree";
import { registerDecisionTree } from "./registry";

function verdictFor(state: AgentState, result: PhaseResult): PhaseVerdict {
  if (result.plan.phase === "act") {
    return { state, display: result.text };
  }
  const { prose, control } = extractControlBlock(result.text);
  if (result.plan.phase === "reason") {
    const reason = ReasonControlSchema.safeParse(control ?? {});
    const answer = reason.success && reason.data.finish ? reason.data.final_answer?.trim() || prose : undefined;
    if (answer) return { state: { ...state, finished: true }, display: prose, phase: "reason", answer };
    return { state, display: prose, phase: "reason" };
  }
  const observe = ObserveControlSchema.safeParse(control ?? {});
  const answer = (observe.success && observe.data.final_answer?.trim()) || prose;
  // Like the reason phase, observe ends the turn only with something to say.
  const done = observe.success && observe.data.should_continue === false && answer !== "";
  if (!done) return { state, display: prose, phase: "observe" };
  return { state: { ...state, finished: true }, display: prose, phase: "observe", answer };
}

export const roaTree: DecisionTree = registerDecisionTree({
  ...baseTree,
  name: "roa",
  description: "Strict reason → act → observe: plan without tools, act with tools, observe without tools.",
  phases(state, tools) {
    const data = { step: state.step, maxSteps: state.config.maxIterations, tools };
    return [
      { phase: "reason", tools: false, instruction: render("reason", data) },
      { phase: "act", tools: true, instruction: render("act", data) },
      { phase: "observe", tools: false, instruction: render("observe", data) },
    ];
  },
  onPhaseResult: verdictFor,
});
