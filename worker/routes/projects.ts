// A user's projects (docs/protocol.md "Projects, instructions and memory"): /api/projects. A project is
// its owner's only (another's is a 404); deleting one keeps its conversations, outside any project.
import { Hono } from "hono";
import { patchProblems } from "../../agent/decision-trees";
import { claimForProject, deleteProjectFiles, toAttachment } from "../../d1/files";
import {
  createProject,
  deleteProject,
  findProject,
  listProjects,
  type ProjectRow,
  shownProject,
  updateProject,
} from "../../d1/projects";
import type { ModelRef } from "../../protocol";
import {
  AddProjectFileSchema,
  CreateProjectSchema,
  MAX_PROJECTS,
  type ProjectDefaults,
  UpdateProjectSchema,
} from "../../protocol/projects";
import { ApiError, invalid, notFound } from "../errors";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readJson } from "../validate";
import { ownModel } from "./providers";

export const projectRoutes = new Hono<AppEnv>();

/** Its defaults' approach must be a decision tree the server has; 400 naming the field otherwise. */
function checkDefaults(defaults: ProjectDefaults | undefined): void {
  const problems = defaults && patchProblems(defaults.agent);
  if (problems) throw invalid(`defaults.agent.decisionTree: ${problems.decisionTree}`, problems);
}

/** The user's project, or 404 whoever else's it is. */
export async function ownProject(d1: D1Database, userId: string, id: string): Promise<ProjectRow> {
  const row = await findProject(d1, userId, id);
  if (!row) throw notFound("No such project");
  return row;
}

projectRoutes.get("/", async (c) => c.json({ projects: await listProjects(c.var.shard, currentUser(c).id) }));

projectRoutes.post("/", async (c) => {
  const input = await readJson(c, CreateProjectSchema);
  checkDefaults(input.defaults);
  const model: ModelRef | null | undefined = input.model
    ? await ownModel(c.env, ownerOf(c), input.model, "model")
    : input.model;
  const row = await createProject(c.var.shard, currentUser(c).id, { ...input, model });
  if (!row) throw new ApiError(409, "conflict", `At most ${MAX_PROJECTS} projects per user; delete one first`);
  return c.json(await shownProject(c.var.shard, row), 201);
});

projectRoutes.get("/:id", async (c) => {
  const row = await ownProject(c.var.shard, currentUser(c).id, c.req.param("id"));
  return c.json(await shownProject(c.var.shard, row));
});

projectRoutes.patch("/:id", async (c) => {
  const row = await ownProject(c.var.shard, currentUser(c).id, c.req.param("id"));
  const patch = await readJson(c, UpdateProjectSchema);
  checkDefaults(patch.defaults);
  // Checked before anything changes: a model the user does not have refuses the whole PATCH.
  const model = patch.model ? await ownModel(c.env, ownerOf(c), patch.model, "model") : patch.model;
  const updated = await updateProject(c.var.shard, row, { ...patch, model });
  return c.json(await shownProject(c.var.shard, updated));
});

projectRoutes.delete("/:id", async (c) => {
  const user = currentUser(c);
  const row = await ownProject(c.var.shard, user.id, c.req.param("id"));
  // Its files first (R2, then their rows): a deletion cut short is finished by the same request again.
  await deleteProjectFiles(c.var.shard, c.env.FILES, user.id, row.id);
  await deleteProject(c.var.shard, row);
  return c.body(null, 204);
});

projectRoutes.post("/:id/files", async (c) => {
  const userId = currentUser(c).id;
  const row = await ownProject(c.var.shard, userId, c.req.param("id"));
  const { file_id } = await readJson(c, AddProjectFileSchema);
  const file = await claimForProject(c.var.shard, userId, row.id, file_id);
  if (!file) throw notFound("No such file: upload it with POST /api/files, and send it in no message");
  return c.json(toAttachment(file), 201);
});

projectRoutes.delete("/:id/files/:fileId", async (c) => {
  const userId = currentUser(c).id;
  const row = await ownProject(c.var.shard, userId, c.req.param("id"));
  const deleted = await deleteProjectFiles(c.var.shard, c.env.FILES, userId, row.id, c.req.param("fileId"));
  if (!deleted) throw notFound("No such file in this project");
  return c.body(null, 204);
});
