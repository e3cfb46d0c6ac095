// Approval before risky tools (issue 30): which tools ask the user before they run, and the decision a
// waiting call gets. A rule is kept per tool: a built-in tool by its name, an MCP tool by its server's id
// and its own name (mcpApprovalKey), so renaming a server keeps its rules.
import { z } from "zod";

/** "ask": the call waits for the user's Approve; "allow": it runs at once. */
export const ApprovalModeSchema = z.enum(["ask", "allow"]);
export type ApprovalMode = z.infer<typeof ApprovalModeSchema>;

/** How a call that waited for approval was decided: by the user, or by its deadline passing. */
export const ApprovalDecisionSchema = z.enum(["approved", "denied", "timed_out"]);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

const MCP_KEY_PREFIX = "mcp:";

/** The tool name of a server-wide rule, `mcp:<server id>:*`: every tool of the server without its own rule. */
export const ALL_TOOLS = "*";

/** The rule key of an MCP server's tool: `mcp:<server id>:<tool>` (the tool as the server names it). */
export const mcpApprovalKey = (serverId: string, tool: string) => `${MCP_KEY_PREFIX}${serverId}:${tool}`;

/** `mcp:<id>:<tool>` → its parts; a built-in tool's key → undefined. */
export function splitApprovalKey(key: string): { serverId: string; tool: string } | undefined {
  if (!key.startsWith(MCP_KEY_PREFIX)) return undefined;
  const rest = key.slice(MCP_KEY_PREFIX.length);
  const at = rest.indexOf(":");
  if (at <= 0 || at === rest.length - 1) return undefined;
  return { serverId: rest.slice(0, at), tool: rest.slice(at + 1) };
}

export const ApprovalKeySchema = z.string().min(1, "tool is empty").max(300, "tool is longer than 300 characters");

/** One rule the user set (a tool without one has its default). */
export const ApprovalRuleSchema = z.object({ tool: ApprovalKeySchema, mode: ApprovalModeSchema });
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

/** PUT /api/tool-approvals: sets a tool's rule; "default" forgets it. */
export const ApprovalRulePutSchema = z.strictObject({
  tool: ApprovalKeySchema,
  mode: z.enum(["ask", "allow", "default"]),
});
export type ApprovalRulePut = z.infer<typeof ApprovalRulePutSchema>;

/** A built-in tool as Settings lists it, with its rule in effect. */
export const BuiltinToolApprovalSchema = z.object({
  tool: z.string(),
  description: z.string(),
  /** The tool changes the user's notes, tasks or schedules (a read never does). */
  writes: z.boolean(),
  mode: ApprovalModeSchema,
  default_mode: ApprovalModeSchema,
});
export type BuiltinToolApproval = z.infer<typeof BuiltinToolApprovalSchema>;

/** GET /api/tool-approvals (and PUT's answer): the built-in tools, and every rule the user set. */
export const ToolApprovalsSchema = z.object({
  builtin: z.array(BuiltinToolApprovalSchema),
  rules: z.array(ApprovalRuleSchema),
});
export type ToolApprovals = z.infer<typeof ToolApprovalsSchema>;

/** A call waiting for approval, as `hello` and `tool_approval_request` carry it. */
export const PendingApprovalSchema = z.object({
  call_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  step: z.number(),
  /** When it is denied if nobody decides (ISO). */
  deadline: z.string(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

/** The client's decision on one waiting call; `always_allow` also saves "allow" as the tool's rule. */
export const ToolApprovalFrameSchema = z.strictObject({
  type: z.literal("tool_approval"),
  call_id: z.string().min(1).max(200),
  decision: z.enum(["approve", "deny"]),
  always_allow: z.boolean().optional(),
});
export type ToolApprovalFrame = z.infer<typeof ToolApprovalFrameSchema>;
