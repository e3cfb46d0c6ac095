// Share links (docs/protocol.md "Share links"). Creating and revoking check ownership (another user's
// conversation or link is 404); the public read needs no account and is mounted before identity
// (worker/app.ts), so no cookie or token, stale or bad, can refuse it; forking takes a signed-in caller.
import type { Context } from "hono";
import { Hono } from "hono";
import { database } from "../../d1/client";
import { createConversation, findOwnConversation } from "../../d1/conversations";
import { getFile, readFileBytes } from "../../d1/files";
import { linkShard, shardDb } from "../../d1/shards";
import { deleteShare, findShare, insertShare, listShares, toShare } from "../../d1/shares";
import { CreateShareSchema, SHARE_CREATE_LIMIT, SHARE_FORK_LIMIT, SHARE_READ_LIMIT } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { notFound } from "../errors";
import { fileResponse } from "../files/serve";
import { type AppEnv, currentUser, enterShard, identify, ownerOf, requireUser } from "../middleware/identity";
import { enforce } from "../rate-limit";
import { sharedFileIds, sharedView } from "../shares/view";
import { readJson } from "../validate";

const stubFor = (env: Env, id: string) => env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
const noSuchLink = () => notFound("No such share link");

/** Under /api/conversations (signed in): make a link to the conversation's current path. */
export const conversationShareRoutes = new Hono<AppEnv>();

conversationShareRoutes.post("/:id/shares", async (c) => {
  const user = currentUser(c);
  const row = await findOwnConversation(c.var.db, user.id, c.req.param("id"));
  if (!row) throw notFound("No such conversation");
  const body = await readJson(c, CreateShareSchema);
  await enforce(c, `share_create:${user.id}`, SHARE_CREATE_LIMIT, "share links made");
  // The snapshot is the current leaf now: what is added later is past leaf_seq and never shown.
  const { leaf_seq } = await stubFor(c.env, row.id).snapshot({ conversationId: row.id, ...ownerOf(c) });
  const share = await insertShare(c.var.db, c.var.shardIndex, {
    userId: user.id,
    conversationId: row.id,
    title: row.title,
    leafSeq: leaf_seq,
    includeSystem: body.include_system,
    includeTools: body.include_tools,
    includeFiles: body.include_files,
  });
  return c.json(toShare(share), 201);
});

/** /api/shares (signed in): the user's links. */
export const shareRoutes = new Hono<AppEnv>();

shareRoutes.get("/", async (c) => {
  const rows = await listShares(c.var.db, currentUser(c).id);
  return c.json({ shares: rows.map(toShare) });
});

shareRoutes.delete("/:id", async (c) => {
  if (!(await deleteShare(c.var.db, currentUser(c).id, c.req.param("id")))) throw noSuchLink();
  return c.body(null, 204);
});

/** /api/shared: what a link shows (no account), and forking it into the caller's own conversations. */
export const sharedRoutes = new Hono<AppEnv>();

/** A shared page is not for search engines, caches or the sites it links to; set on errors too. */
function privatePage(c: Context<AppEnv>): void {
  c.header("X-Robots-Tag", "noindex");
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
}

/** The link a public read names, counted against the reader's address; 404 for an unknown or revoked one. */
async function openLink(c: Context<AppEnv>) {
  privatePage(c);
  const id = c.req.param("id") ?? "";
  // The link's id names its shard: the read, its limit and the owner's conversation are all there.
  const shard = linkShard(c.env, id);
  if (shard === undefined) throw noSuchLink();
  enterShard(c, shard);
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  await enforce(c, `share_read:${address}`, SHARE_READ_LIMIT, "shared pages opened");
  const row = await findShare(c.var.db, id);
  if (!row) throw noSuchLink();
  return { row, shard };
}

sharedRoutes.get("/:id", async (c) => {
  const { row, shard } = await openLink(c);
  return c.json(await sharedView(c.env, row, shard));
});

// A file of the link's messages, when the owner included files: served from the link's own URL, with the
// same headers as to its owner (worker/files/serve.ts); any other file id is 404, as for a missing link.
sharedRoutes.get("/:id/files/:fileId", async (c) => {
  const { row, shard } = await openLink(c);
  const fileId = c.req.param("fileId");
  if (!sharedFileIds(await sharedView(c.env, row, shard)).has(fileId)) throw notFound("No such file");
  const file = await getFile(c.var.shard, row.userId, fileId);
  const object = file && (await readFileBytes(c.env.FILES, row.userId, file.id));
  if (!file || !object) throw notFound("No such file");
  const response = fileResponse(file, object, c.req.query("download") === "1");
  // Private to the link: its revocation must hold at once, so nothing keeps a copy.
  response.headers.set("Cache-Control", "no-store");
  response.headers.set("X-Robots-Tag", "noindex");
  response.headers.set("Referrer-Policy", "no-referrer");
  return response;
});

// identify checks the Origin of a cookie-signed write, as on every other route.
sharedRoutes.post("/:id/fork", identify, requireUser, async (c) => {
  const user = currentUser(c);
  // The one request that reads two shards: the link's (its owner's) and the caller's, who gets the copy.
  const ownerShard = linkShard(c.env, c.req.param("id"));
  const row =
    ownerShard === undefined ? undefined : await findShare(database(shardDb(c.env, ownerShard)), c.req.param("id"));
  if (!row || ownerShard === undefined) throw noSuchLink();
  await enforce(c, `share_fork:${user.id}`, SHARE_FORK_LIMIT, "conversations copied");
  const view = await sharedView(c.env, row, ownerShard);
  // A new conversation of the caller's with a copy of what the link shows: nothing points back to it.
  const conversation = await createConversation(c.var.db, user.id, view.share.title);
  if (view.messages.length > 0) {
    await stubFor(c.env, conversation.id).importMessages(
      { conversationId: conversation.id, ...ownerOf(c) },
      view.messages,
    );
  }
  return c.json(conversation, 201);
});
