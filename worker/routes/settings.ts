// Per-user settings (PROTOCOL.md "Settings"). A PUT with any bad field saves nothing.
import { Hono } from "hono";
import { AgentConfigPatchSchema } from "../../protocol";
import { invalid } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { loadAgentConfig, patchProblems, saveAgentConfig } from "../settings/agent-config-store";
import { readJson } from "../validate";

export const settingsRoutes = new Hono<AppEnv>();

settingsRoutes.get("/agent", async (c) => c.json(await loadAgentConfig(c.env.DB, currentUser(c).id)));

settingsRoutes.put("/agent", async (c) => {
  const patch = await readJson(c, AgentConfigPatchSchema);
  const problems = patchProblems(patch);
  if (problems) throw invalid(`decisionTree: ${problems.decisionTree}`, problems);
  return c.json(await saveAgentConfig(c.env.DB, currentUser(c).id, patch));
});
