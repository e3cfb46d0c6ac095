// Knowledge entries over HTTP (for the Library page and scripts): the same store and slug rules as the
// `#slug` references the agent resolves.
import { Hono } from "hono";
import { z } from "zod";
import { notFound } from "../errors";
import { deleteKnowledge, getKnowledge, listKnowledge, putKnowledge } from "../library/knowledge-store";
import { EntryInputSchema, SlugSchema } from "../library/schemas";
import { type AppEnv, currentUser } from "../middleware/identity";
import { parseWith, readJson } from "../validate";

export const knowledgeRoutes = new Hono<AppEnv>();

const SlugParamSchema = z.object({ slug: SlugSchema });

/** A bad slug is a 400 naming the `slug` field. */
const slugParam = (raw: string) => parseWith(SlugParamSchema, { slug: raw }).slug;

knowledgeRoutes.get("/", async (c) => c.json({ entries: await listKnowledge(c.env.DB, currentUser(c).id) }));

knowledgeRoutes.get("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  const entry = await getKnowledge(c.env.DB, currentUser(c).id, slug);
  if (!entry) throw notFound(`No knowledge entry #${slug}`);
  return c.json(entry);
});

knowledgeRoutes.put("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  const input = await readJson(c, EntryInputSchema);
  return c.json(await putKnowledge(c.env.DB, currentUser(c).id, slug, input));
});

knowledgeRoutes.delete("/:slug", async (c) => {
  const slug = slugParam(c.req.param("slug"));
  if (!(await deleteKnowledge(c.env.DB, currentUser(c).id, slug))) throw notFound(`No knowledge entry #${slug}`);
  return c.body(null, 204);
});
