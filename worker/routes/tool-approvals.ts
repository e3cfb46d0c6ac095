// Settings → Tools, approvals (issue 30): which tools ask before they run. GET lists the built-in tools
// with the rule in effect and every rule the user set; PUT sets or forgets one rule. An MCP tool's rule
// names the server by id, which must be the user's own.
import { type Context, Hono } from "hono";
import { BUILTIN_TOOLS } from "../../agent/tools";
import { defaultApprovalMode } from "../../agent/tools/approval";
import { delegateTool } from "../../agent/tools/delegate";
import { REQUEST_INPUT } from "../../agent/tools/request-input";
import { getMcpServerRow } from "../../d1/mcp-servers";
import { forgetApprovalRule, listApprovalRules, saveApprovalRule } from "../../d1/tool-approvals";
import { ApprovalRulePutSchema, splitApprovalKey, type ToolApprovals } from "../../protocol";
import { invalid } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const toolApprovalRoutes = new Hono<AppEnv>();

/** The built-in tools a rule can be set for: every one but the question to the user. */
const APPROVABLE = [...BUILTIN_TOOLS, delegateTool].filter((t) => t.name !== REQUEST_INPUT);

async function approvals(c: Context<AppEnv>): Promise<ToolApprovals> {
  const rules = await listApprovalRules(c.var.shard, currentUser(c).id);
  const set = new Map(rules.map((r) => [r.tool, r.mode]));
  return {
    builtin: APPROVABLE.map((tool) => ({
      tool: tool.name,
      description: tool.description,
      writes: tool.readOnly !== true,
      mode: set.get(tool.name) ?? defaultApprovalMode(tool),
      default_mode: defaultApprovalMode(tool),
    })),
    rules,
  };
}

toolApprovalRoutes.get("/", async (c) => c.json(await approvals(c)));

toolApprovalRoutes.put("/", async (c) => {
  const { tool, mode } = await readJson(c, ApprovalRulePutSchema);
  const userId = currentUser(c).id;
  const mcp = splitApprovalKey(tool);
  const known = mcp
    ? (await getMcpServerRow(c.var.shard, userId, mcp.serverId)) !== undefined
    : APPROVABLE.some((t) => t.name === tool);
  if (!known) {
    const problem = mcp ? "no such MCP server" : "no such built-in tool";
    throw invalid(`tool: ${problem}`, { tool: problem });
  }
  if (mode === "default") await forgetApprovalRule(c.var.shard, userId, tool);
  else await saveApprovalRule(c.var.shard, userId, tool, mode);
  return c.json(await approvals(c));
});
