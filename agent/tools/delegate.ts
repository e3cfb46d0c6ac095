// delegate: hands a sub-task to a subagent that runs its own loop in a child conversation object, with
// a subset of the tools and limits never above what the parent has left. The child's final answer is
// the result; its tokens are charged to the parent.
import { z } from "zod";
import { defineTool, ToolError } from "./tool";

export const DELEGATE = "delegate";

export const delegateTool = defineTool({
  name: DELEGATE,
  description:
    "Delegate a self-contained sub-task to a subagent that works on its own with the given tools and reports back its final answer. Use it for research or multi-step work that can run independently; several delegate calls in one step run in parallel.",
  args: z.object({
    task: z.string().min(1).max(8000).describe("What the subagent must do, with everything it needs to know"),
    tools: z
      .array(z.string())
      .max(20)
      .optional()
      .describe("Tool names the subagent may use (default: all but request_input)"),
    max_steps: z.number().int().min(1).max(50).optional().describe("Iteration limit for the subagent"),
    token_budget: z.number().int().min(1000).max(200000).optional().describe("Token budget for the subagent"),
  }),
  // The subagent's own limits bound its time; this only stops a call that outlives every limit.
  timeoutMs: 650_000,
  spendsTurnTokens: true,
  // Cut short by a restart, the call waits again for the subagent it started (which went on).
  async resume(args, ctx) {
    if (!ctx.subagents) throw new ToolError("Delegation is not available here (subagents cannot nest deeper).");
    return ctx.subagents.reattach(ctx, args.task);
  },
  async execute(args, ctx) {
    if (!ctx.subagents) throw new ToolError("Delegation is not available here (subagents cannot nest deeper).");
    return ctx.subagents.delegate(
      { task: args.task, tools: args.tools, maxSteps: args.max_steps, tokenBudget: args.token_budget },
      ctx,
    );
  },
});
