// The tools as the AI SDK declares them to the model. No `execute`: the loop runs every call itself.
import { type ToolSet, tool } from "ai";
import type { AgentTool } from "./tool";

const cache = new WeakMap<readonly AgentTool[], ToolSet>();

export function toolSet(tools: readonly AgentTool[]): ToolSet {
  let set = cache.get(tools);
  if (!set) {
    set = Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: t.args })]));
    cache.set(tools, set);
  }
  return set;
}
