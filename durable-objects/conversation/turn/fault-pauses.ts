// A test seam for the crash tests (test/e2e/recovery.test.ts): FAULT_PAUSE_AFTER_TOOLS names tools
// ("task_create,vault_list") whose calls, once their effect is done, hold their result back until the
// turn is stopped, so a test can kill the process in the one window that matters: the effect exists,
// its result is not in the log. Unset (as in every deployment), tools run as they are.
import type { AgentTool } from "../../../agent/tools/tool";

export function faultPauses(tools: AgentTool[], env: Pick<Env, "FAULT_PAUSE_AFTER_TOOLS">): AgentTool[] {
  const names = new Set(
    (env.FAULT_PAUSE_AFTER_TOOLS ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean),
  );
  if (!names.size) return tools;
  return tools.map((tool) =>
    names.has(tool.name)
      ? {
          ...tool,
          timeoutMs: 10 * 60_000,
          async execute(args, ctx) {
            const result = await tool.execute(args, ctx);
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
            return result;
          },
        }
      : tool,
  );
}
