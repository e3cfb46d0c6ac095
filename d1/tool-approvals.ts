// The user's approval rules in D1 (protocol/approvals.ts): which tools ask before they run. Read with
// a turn's settings (loadTurnSettings, in the same round trip) and written by Settings and by a card's
// "Always allow". Every statement is scoped by user id.
import { and, eq } from "drizzle-orm";
import type { ApprovalMode, ApprovalRule } from "../protocol";
import { database, nowIso } from "./client";
import { toolApprovals } from "./schema";

export const approvalRulesQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select({ tool: toolApprovals.tool, mode: toolApprovals.mode })
    .from(toolApprovals)
    .where(eq(toolApprovals.userId, userId));

export async function listApprovalRules(d1: D1Database, userId: string): Promise<ApprovalRule[]> {
  const rows = await approvalRulesQuery(d1, userId);
  return rows.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

export async function saveApprovalRule(d1: D1Database, userId: string, tool: string, mode: ApprovalMode) {
  await database(d1)
    .insert(toolApprovals)
    .values({ userId, tool, mode })
    .onConflictDoUpdate({ target: [toolApprovals.userId, toolApprovals.tool], set: { mode, updatedAt: nowIso() } });
}

export async function forgetApprovalRule(d1: D1Database, userId: string, tool: string) {
  await database(d1)
    .delete(toolApprovals)
    .where(and(eq(toolApprovals.userId, userId), eq(toolApprovals.tool, tool)));
}
