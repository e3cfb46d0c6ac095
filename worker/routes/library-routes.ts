// Knowledge entries and workflows over HTTP (for the Library page and scripts): one route set, used
// twice, over the same store and slug rules as the `#slug` and `/slug` references the agent resolves.
import { Hono } from "hono";
import { z } from "zod";
import { deleteKnowledge, getKnowledge, listKnowledge, putKnowledge } from "../../d1/library/knowledge-store";
import { deleteWorkflow, getWorkflow, listWorkflows, putWorkflow } from "../../d1/library/workflow-store";
import { EntryInputSchema, SlugSchema } from "../../protocol/library";
import { notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { parseWith, readJson } from "../validate";

type Entry = Awaited<ReturnType<typeof getKnowledge>>;
interface EntryStore {
  /** How a missing entry is named in errors: "knowledge entry #x", "workflow /x". */
  name(slug: string): string;
  list: typeof listKnowledge;
  get: (d1: D1Database, userId: string, slug: string) => Promise<Entry>;
  put: typeof putKnowledge;
  remove: typeof deleteKnowledge;
}

const SlugParamSchema = z.object({ slug: SlugSchema });
/** A bad slug is a 400 naming the `slug` field. */
const slugParam = (raw: string) => parseWith(SlugParamSchema, { slug: raw }).slug;

function libraryRoutes(store: EntryStore) {
  const routes = new Hono<AppEnv>();
  routes.get("/", async (c) => c.json({ entries: await store.list(c.var.shard, currentUser(c).id) }));
  routes.get("/:slug", async (c) => {
    const slug = slugParam(c.req.param("slug"));
    const entry = await store.get(c.var.shard, currentUser(c).id, slug);
    if (!entry) throw notFound(`No ${store.name(slug)}`);
    return c.json(entry);
  });
  routes.put("/:slug", async (c) => {
    const slug = slugParam(c.req.param("slug"));
    const input = await readJson(c, EntryInputSchema);
    return c.json(await store.put(c.var.shard, currentUser(c).id, slug, input));
  });
  routes.delete("/:slug", async (c) => {
    const slug = slugParam(c.req.param("slug"));
    if (!(await store.remove(c.var.shard, currentUser(c).id, slug))) throw notFound(`No ${store.name(slug)}`);
    return c.body(null, 204);
  });
  return routes;
}

export const knowledgeRoutes = libraryRoutes({
  name: (slug) => `knowledge entry #${slug}`,
  list: listKnowledge,
  get: getKnowledge,
  put: putKnowledge,
  remove: deleteKnowledge,
});

export const workflowRoutes = libraryRoutes({
  name: (slug) => `workflow /${slug}`,
  list: listWorkflows,
  get: getWorkflow,
  put: putWorkflow,
  remove: deleteWorkflow,
});
