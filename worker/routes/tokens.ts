// API tokens (docs/protocol.md "Identity"): shown once at creation, stored as SHA-256 only.
import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { apiTokens } from "../../d1/schema";
import { CreateTokenSchema } from "../../protocol";
import { randomToken, sha256Hex } from "../auth/crypto";
import { notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const tokenRoutes = new Hono<AppEnv>();

tokenRoutes.post("/", async (c) => {
  const { name } = await readJson(c, CreateTokenSchema);
  // The token names its shard: a request with it reads that shard and no directory (d1/shards.ts).
  const token = randomToken("ot", c.var.shardIndex);
  const row = { id: crypto.randomUUID(), userId: currentUser(c).id, name, tokenHash: await sha256Hex(token) };
  await c.var.db.insert(apiTokens).values(row);
  return c.json({ id: row.id, name, token }, 201);
});

tokenRoutes.get("/", async (c) => {
  const rows = await c.var.db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      created_at: apiTokens.createdAt,
      last_used_at: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, currentUser(c).id))
    .orderBy(desc(apiTokens.createdAt));
  return c.json(rows);
});

tokenRoutes.delete("/:id", async (c) => {
  const deleted = await c.var.db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, c.req.param("id")), eq(apiTokens.userId, currentUser(c).id)))
    .returning({ id: apiTokens.id });
  if (!deleted.length) throw notFound("No such token");
  return c.body(null, 204);
});
