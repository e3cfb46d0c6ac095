// Behaviour every tree shares: stop conditions in seed 001's order, step counting, recording tool
// results for loop detection and the error limit.
import type { AgentConfig } from "../../protocol";
import { type AgentState, canonicalJson, recordAction, resultKey } from "../state";
import { firstStop } from "../termination";
import type { Continuation, ToolResult } from "./decision-tree";

export const baseTree = {
  getConfig: (base: AgentConfig): AgentConfig => base,
  shouldContinue(state: AgentState): Continuation {
    const reason = firstStop(state);
    return reason ? { continue: false, reason } : { continue: true };
  },
  onTurnStart: (state: AgentState): AgentState => ({ ...state, step: state.step + 1 }),
  onToolResult: (state: AgentState, result: ToolResult): AgentState =>
    recordAction(state, {
      tool: result.tool,
      argsKey: canonicalJson(result.args),
      ok: result.ok,
      ...(result.ok ? { resultKey: resultKey(result.result) } : { error: result.error }),
    }),
};
