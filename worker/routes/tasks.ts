// Tasks over HTTP (for the UI and scripts): the same store and rules as the agent's task_* tools.
import { Hono } from "hono";
import { z } from "zod";
import {
  CreateTaskSchema,
  createTask,
  deleteTask,
  listTasks,
  TaskStatusSchema,
  UpdateTaskSchema,
  updateTask,
} from "../../d1/tasks";
import { notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson, readQuery } from "../validate";

export const taskRoutes = new Hono<AppEnv>();

const ListQuerySchema = z.object({ status: TaskStatusSchema.optional() });

taskRoutes.get("/", async (c) => {
  const { status } = readQuery(c, ListQuerySchema);
  return c.json({ tasks: await listTasks(c.var.shard, currentUser(c).id, status) });
});

taskRoutes.post("/", async (c) => {
  const input = await readJson(c, CreateTaskSchema);
  const { task } = await createTask(c.var.shard, currentUser(c).id, input);
  return c.json(task, 201);
});

taskRoutes.patch("/:id", async (c) => {
  const changes = await readJson(c, UpdateTaskSchema);
  const written = await updateTask(c.var.shard, currentUser(c).id, c.req.param("id"), changes);
  if (!written) throw notFound("No such task");
  return c.json(written.task);
});

taskRoutes.delete("/:id", async (c) => {
  if (!(await deleteTask(c.var.shard, currentUser(c).id, c.req.param("id")))) throw notFound("No such task");
  return c.body(null, 204);
});
