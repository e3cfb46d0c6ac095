// docs/protocol.md `GET /api/search?q=`: over the signed-in user's conversations only (d1/conversation-search.ts).
import { Hono } from "hono";
import { searchConversations } from "../../d1/conversation-search";
import { SearchQuerySchema } from "../../protocol";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readQuery } from "../validate";

export const searchRoutes = new Hono<AppEnv>();

searchRoutes.get("/", async (c) => {
  const { q, project } = readQuery(c, SearchQuerySchema);
  return c.json({ results: await searchConversations(c.var.shard, currentUser(c).id, q, project ?? null) });
});
