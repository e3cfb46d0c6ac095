// Which of a turn's tools wait for the user's approval before they run (protocol/approvals.ts). A tool
// the user set a rule for follows it; otherwise an MCP tool its server does not mark read-only asks, and
// a built-in tool does not. A question to the user never asks: it is itself the user's turn to speak.
import {
  ALL_TOOLS,
  type ApprovalDecision,
  type ApprovalMode,
  type ApprovalRule,
  mcpApprovalKey,
  splitApprovalKey,
} from "../../protocol";
import { REQUEST_INPUT } from "./request-input";
import type { AgentTool } from "./tool";

/** The rule key of a tool: its own (`AgentTool.approval`) or, for a built-in tool, its name. */
export const approvalKeyOf = (tool: AgentTool) => tool.approval?.key ?? tool.name;

export const defaultApprovalMode = (tool: AgentTool): ApprovalMode => (tool.approval?.askByDefault ? "ask" : "allow");

export class ApprovalPolicy {
  private readonly rules: Map<string, ApprovalMode>;

  constructor(rules: readonly ApprovalRule[] = []) {
    this.rules = new Map(rules.map((r) => [r.tool, r.mode]));
  }

  needs(tool: AgentTool): boolean {
    if (tool.name === REQUEST_INPUT) return false;
    const key = approvalKeyOf(tool);
    const server = splitApprovalKey(key);
    // A tool's own rule, else its server's rule for all its tools, else its default.
    const mode = this.rules.get(key) ?? (server && this.rules.get(mcpApprovalKey(server.serverId, ALL_TOOLS)));
    return (mode ?? defaultApprovalMode(tool)) === "ask";
  }

  /** "Always allow" on a card: the turn's later calls of the tool run at once. */
  allow(tool: AgentTool): void {
    this.rules.set(approvalKeyOf(tool), "allow");
  }
}

/** How a waiting call ended; "aborted": the turn was stopped (or ended) first. */
export type ApprovalOutcome = { decision: ApprovalDecision; always_allow?: boolean } | { decision: "aborted" };
