// The default tree: one model call with tools per step; a reply without tool calls is the answer.

import { baseTree } from "./base-tree";
import type { DecisionTree } from "./decision-tree";
import { registerDecisionTree } from "./registry";

export const defaultTree: DecisionTree = registerDecisionTree({
  ...baseTree,
  name: "default",
  description: "Tool-calling loop: the model calls tools until it answers without one.",
  phases: () => [{ phase: "act", tools: true }],
  onPhaseResult(state, result) {
    if (result.toolCallCount > 0) return { state, display: result.text };
    return { state: { ...state, finished: true }, display: result.text, answer: result.text };
  },
});
