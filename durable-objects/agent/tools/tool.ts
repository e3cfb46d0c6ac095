// What a tool is: a name and description the model sees, a zod schema its arguments must pass, and an
// execute function. The loop validates arguments, applies the per-call timeout and the turn's abort
// signal, and reports the outcome; a tool only does its work.
import type { z } from "zod";

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

export interface ToolContext {
  db: D1Database;
  userId: string;
  conversationId: string;
  /** Aborted on Stop, on the per-call timeout, and when the turn ends. */
  signal: AbortSignal;
  step: number;
  callId: string;
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  args: S;
  timeoutMs?: number;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}

/** An expected failure the model should read (e.g. "no note at that path"), not a crash. */
export class ToolError extends Error {
  override name = "ToolError";
}

/** Keeps each tool's argument type while collecting tools of different shapes in one list. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<S>): AgentTool {
  return tool as unknown as AgentTool;
}
