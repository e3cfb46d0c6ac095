// The tools as the provider declares them to the model: name, description and the JSON Schema of the
// zod arguments. No execution here: the loop runs every call itself.
import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";
import type { AgentTool } from "./tool";

const cache = new WeakMap<readonly AgentTool[], LanguageModelV3FunctionTool[]>();

export function toolDeclarations(tools: readonly AgentTool[]): LanguageModelV3FunctionTool[] {
  let declared = cache.get(tools);
  if (!declared) {
    declared = tools.map((t) => ({
      type: "function",
      name: t.name,
      description: t.description,
      inputSchema: (t.inputSchema ??
        z.toJSONSchema(t.args, { io: "input" })) as LanguageModelV3FunctionTool["inputSchema"],
    }));
    cache.set(tools, declared);
  }
  return declared;
}
