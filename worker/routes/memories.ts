// What the agent remembers (docs/protocol.md "Projects, instructions and memory"): /api/memories, every
// memory visible and editable by its user, the user's own or a project's; another user's is a 404.
import { Hono } from "hono";
import { createMemory, deleteMemory, listMemories, toMemory, updateMemory } from "../../d1/memories";
import { CreateMemorySchema, MAX_MEMORIES, UpdateMemorySchema } from "../../protocol/projects";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";
import { ownProject } from "./projects";

export const memoryRoutes = new Hono<AppEnv>();

const NO_MEMORY = "No such memory";
const FULL = `At most ${MAX_MEMORIES} memories per user; delete some first`;

memoryRoutes.get("/", async (c) => c.json({ memories: await listMemories(c.var.shard, currentUser(c).id) }));

memoryRoutes.post("/", async (c) => {
  const userId = currentUser(c).id;
  const { text, project_id } = await readJson(c, CreateMemorySchema);
  if (project_id) await ownProject(c.var.shard, userId, project_id);
  const row = await createMemory(c.var.shard, userId, {
    text,
    projectId: project_id ?? null,
    conversationId: null,
    seq: null,
  });
  if (!row) throw new ApiError(409, "conflict", FULL);
  return c.json(toMemory(row), 201);
});

memoryRoutes.patch("/:id", async (c) => {
  const { text } = await readJson(c, UpdateMemorySchema);
  const row = await updateMemory(c.var.shard, currentUser(c).id, c.req.param("id"), text);
  if (!row) throw notFound(NO_MEMORY);
  return c.json(toMemory(row));
});

memoryRoutes.delete("/:id", async (c) => {
  if (!(await deleteMemory(c.var.shard, currentUser(c).id, c.req.param("id")))) throw notFound(NO_MEMORY);
  return c.body(null, 204);
});
