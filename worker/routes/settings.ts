// Per-user settings (docs/protocol.md "Settings"). A PUT with any bad field saves nothing.
import { Hono } from "hono";
import { patchProblems, withKnownTree } from "../../agent/decision-trees";
import { loadAgentConfig, saveAgentConfig } from "../../d1/user-settings";
import { AgentConfigPatchSchema } from "../../protocol";
import { invalid } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const settingsRoutes = new Hono<AppEnv>();

settingsRoutes.get("/agent", async (c) => c.json(withKnownTree(await loadAgentConfig(c.var.shard, currentUser(c).id))));

settingsRoutes.put("/agent", async (c) => {
  const patch = await readJson(c, AgentConfigPatchSchema);
  const problems = patchProblems(patch);
  if (problems) throw invalid(`decisionTree: ${problems.decisionTree}`, problems);
  const userId = currentUser(c).id;
  const config = { ...withKnownTree(await loadAgentConfig(c.var.shard, userId)), ...patch };
  await saveAgentConfig(c.var.shard, userId, config);
  return c.json(config);
});
