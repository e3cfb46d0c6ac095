// Runs built-in tools as the loop does (arguments through the tool's schema, then execute) for a
// freshly signed-up user, so tool tests read as calls.
import type { AgentTool, ToolContext } from "../../agent/tools/tool";
import { signup } from "./helpers";

export function findTool(tools: readonly AgentTool[], name: string): AgentTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

export async function toolsFor(tools: readonly AgentTool[]) {
  const { user, db } = await signup();
  const ctx: ToolContext = {
    db,
    userId: user.id,
    conversationId: "conversation",
    signal: new AbortController().signal,
    step: 1,
    callId: "call",
  };
  const tool = (name: string) => findTool(tools, name);
  // Each run is its own call, as in a turn: a write tool does its write once per call id (effectKey).
  let calls = 0;
  // biome-ignore lint/suspicious/noExplicitAny: test results are inspected loosely
  const run = (name: string, args: unknown, as: Partial<ToolContext> = {}): Promise<any> =>
    tool(name).execute(tool(name).args.parse(args), { ...ctx, callId: `call_${calls++}`, ...as });
  return { user, db, run, tool };
}
