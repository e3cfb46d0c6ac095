// Saved workflows over HTTP (for the Library page and scripts): the same store and slug rules as the
// `/slug` references the agent resolves.
import { Hono } from "hono";
import { z } from "zod";
import { notFound } from "../errors";
import { EntryInputSchema, SlugSchema } from "../library/schemas";
import { deleteWorkflow, getWorkflow, listWorkflows, putWorkflow } from "../library/workflow-store";
import { type AppEnv, currentUser } from "../middleware/identity";
import { parseWith, readJson } from "../validate";

export const workflowRoutes = new Hono<AppEnv>();

const SlugParamSchema = z.object({ slug: SlugSchema });

/** A bad slug is a 400 naming the `slug` field. */
const slugParam = (raw: string) => parseWith(SlugParamSchema, { slug: raw }).slug;

workflowRoutes.get("/", async (c) => c.json({ entries: await listWorkflows(c.env.DB, currentUser(c).id) }));

workflowRoutes.get("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  const workflow = await getWorkflow(c.env.DB, currentUser(c).id, slug);
  if (!workflow) throw notFound(`No workflow /${slug}`);
  return c.json(workflow);
});

workflowRoutes.put("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  const input = await readJson(c, EntryInputSchema);
  return c.json(await putWorkflow(c.env.DB, currentUser(c).id, slug, input));
});

workflowRoutes.delete("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  if (!(await deleteWorkflow(c.env.DB, currentUser(c).id, slug))) throw notFound(`No workflow /${slug}`);
  return c.body(null, 204);
});
