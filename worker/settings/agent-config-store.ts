// Per-user AgentConfig in D1: what the user saved, over the defaults. Read by the settings routes
// and by the conversation object at the start of every turn.
import { eq } from "drizzle-orm";
import { decisionTreeNames } from "../../durable-objects/agent/decision-trees";
import { type AgentConfig, type AgentConfigPatch, AgentConfigPatchSchema, DEFAULT_AGENT_CONFIG } from "../../protocol";
import { database } from "../db/client";
import { agentSettings } from "../db/schema";

export async function loadAgentConfig(d1: D1Database, userId: string): Promise<AgentConfig> {
  const row = (await database(d1).select().from(agentSettings).where(eq(agentSettings.userId, userId)).limit(1))[0];
  const saved = AgentConfigPatchSchema.safeParse(row?.config ?? {});
  // A stored value that no longer passes (bounds changed, tree removed) falls back to its default.
  const config = { ...DEFAULT_AGENT_CONFIG, ...(saved.success ? saved.data : {}) };
  if (!decisionTreeNames().includes(config.decisionTree)) config.decisionTree = DEFAULT_AGENT_CONFIG.decisionTree;
  return config;
}

/** Field errors of a patch beyond its schema: the decision tree must be registered. */
export function patchProblems(patch: AgentConfigPatch): Record<string, string> | undefined {
  if (patch.decisionTree !== undefined && !decisionTreeNames().includes(patch.decisionTree)) {
    return { decisionTree: `must be one of: ${decisionTreeNames().join(", ")}` };
  }
  return undefined;
}

export async function saveAgentConfig(d1: D1Database, userId: string, patch: AgentConfigPatch): Promise<AgentConfig> {
  const config = { ...(await loadAgentConfig(d1, userId)), ...patch };
  const stored = Object.fromEntries(
    Object.entries(config).filter(([key, value]) => value !== (DEFAULT_AGENT_CONFIG as Record<string, unknown>)[key]),
  );
  await database(d1)
    .insert(agentSettings)
    .values({ userId, config: stored })
    .onConflictDoUpdate({ target: agentSettings.userId, set: { config: stored, updatedAt: new Date().toISOString() } });
  return config;
}
