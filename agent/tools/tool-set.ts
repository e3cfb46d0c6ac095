// The tools as the provider declares them to the model: name, description and the JSON Schema of the
// zod arguments. No execution here: the loop runs every call itself.
import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";
import type { AgentTool } from "./tool";

// Kept per tool, not per list: each turn's plan builds a new list (the built-in tools, delegate, that
// turn's MCP tools), and turning every zod schema into JSON Schema again cost 1–4 ms before each turn's
// first model request.
const cache = new WeakMap<AgentTool, LanguageModelV3FunctionTool>();

export function toolDeclarations(tools: readonly AgentTool[]): LanguageModelV3FunctionTool[] {
  return tools.map(declaration);
}

function declaration(tool: AgentTool): LanguageModelV3FunctionTool {
  let declared = cache.get(tool);
  if (!declared) {
    declared = {
      type: "function",
      name: tool.name,
      description: tool.description,
      inputSchema: (tool.inputSchema ??
        z.toJSONSchema(tool.args, { io: "input" })) as LanguageModelV3FunctionTool["inputSchema"],
    };
    cache.set(tool, declared);
  }
  return declared;
}
