// A user's custom instructions and memory switch (docs/protocol.md "Projects, instructions and memory"):
// GET/PUT /api/settings/instructions. A change reaches a conversation at its next turn, with a notice.
import { Hono } from "hono";
import { loadInstructions, saveInstructions } from "../../d1/instructions";
import { InstructionsPatchSchema } from "../../protocol/projects";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const instructionsRoutes = new Hono<AppEnv>();

instructionsRoutes.get("/", async (c) => c.json(await loadInstructions(c.var.shard, currentUser(c).id)));

instructionsRoutes.put("/", async (c) => {
  const patch = await readJson(c, InstructionsPatchSchema);
  return c.json(await saveInstructions(c.var.shard, currentUser(c).id, patch));
});
