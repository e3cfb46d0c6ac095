// What a turn runs with, as plain logic: the limits (the user's saved config, lowered or chosen by what
// started the turn), and a subagent's subset of tools and MCP servers. The host (the conversation
// object, durable-objects/conversation/turn/plans.ts) reads the settings and opens the connections.
import { type AgentConfig, MCP_TOOL_SEPARATOR } from "../../protocol";
import { REQUEST_INPUT } from "../tools/request-input";
import type { AgentTool } from "../tools/tool";

/** What a chat or regenerate frame may set for its turn. */
export interface TurnChoices {
  agent_max_steps?: number;
  decision_tree?: string;
}

/** A user's turn: the saved config, with the frame's lower step limit and its decision tree. */
export function userConfig(saved: AgentConfig, choices: TurnChoices): AgentConfig {
  return {
    ...saved,
    maxIterations: Math.min(saved.maxIterations, choices.agent_max_steps ?? saved.maxIterations),
    decisionTree: choices.decision_tree ?? saved.decisionTree,
  };
}

/** A subagent's turn: the limits its parent gave, the default tree, and no task reminders (the user's
 * open tasks are not the subagent's task). */
export function subagentConfig(
  saved: AgentConfig,
  limits: Pick<AgentConfig, "maxIterations" | "tokenBudget" | "timeoutSeconds">,
): AgentConfig {
  return { ...saved, ...limits, decisionTree: "default", taskReminderRequests: 0 };
}

/** A project's tools switched off: a built-in tool by name, an MCP tool by `server__tool`, or a whole server by its name. */
export function withoutTools(tools: readonly AgentTool[], off: readonly string[]): AgentTool[] {
  if (!off.length) return [...tools];
  const offSet = new Set(off);
  return tools.filter((t) => !offSet.has(t.name) && !offSet.has(t.name.split(MCP_TOOL_SEPARATOR)[0] ?? ""));
}

/** Only the servers whose tools the subagent was given are connected (all of them when none were named). */
export function subagentServers<S extends { name: string }>(servers: readonly S[], tools?: readonly string[]): S[] {
  if (!tools) return [...servers];
  return servers.filter((s) => tools.some((t) => t.startsWith(`${s.name}${MCP_TOOL_SEPARATOR}`)));
}

/** A subagent's tools: the ones named (default: all), never request_input (it has nobody to ask). */
export function subagentTools(offered: readonly AgentTool[], named?: readonly string[]): AgentTool[] {
  const allowed = offered.filter((t) => t.name !== REQUEST_INPUT);
  return named ? allowed.filter((t) => named.includes(t.name)) : allowed;
}
