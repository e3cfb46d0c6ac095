// Importing this module registers the trees that ship with Oracle.
import "./default-tree";
import "./roa-tree";

import { type AgentConfig, type AgentConfigPatch, DEFAULT_AGENT_CONFIG } from "../../protocol";
import { decisionTreeNames } from "./registry";

export type { DecisionTree } from "./decision-tree";
export { decisionTree, decisionTreeNames, findDecisionTree, registerDecisionTree } from "./registry";

/** A saved config whose tree is no longer registered runs (and shows) the default tree. */
export function withKnownTree(config: AgentConfig): AgentConfig {
  return decisionTreeNames().includes(config.decisionTree)
    ? config
    : { ...config, decisionTree: DEFAULT_AGENT_CONFIG.decisionTree };
}

/** Field errors of a settings patch beyond its schema: the decision tree must be registered. */
export function patchProblems(patch: AgentConfigPatch): Record<string, string> | undefined {
  if (patch.decisionTree !== undefined && !decisionTreeNames().includes(patch.decisionTree)) {
    return { decisionTree: `must be one of: ${decisionTreeNames().join(", ")}` };
  }
  return undefined;
}
