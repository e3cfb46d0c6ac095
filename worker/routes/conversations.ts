// Conversation routes (docs/protocol.md "Conversations"). Ownership is checked here, in the Worker, before
// anything reaches the conversation's Durable Object.

import { and, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { type Db, nowIso } from "../../d1/client";
import {
  type ConversationRow,
  createConversation,
  DEFAULT_TITLE,
  descendantIds,
  findOwnConversation,
  listConversations,
  setPinned,
  toConversation,
} from "../../d1/conversations";
import { credentialKey } from "../../d1/credentials";
import { deleteConversationFiles } from "../../d1/files";
import { setConversationProject } from "../../d1/projects";
import { setConversationModel } from "../../d1/providers";
import { conversations } from "../../d1/schema";
import { CreateConversationSchema, MessagesQuerySchema, NotifySchema, UpdateConversationSchema } from "../../protocol";
import { ApiError, notFound, unauthorized } from "../errors";
import { type AppEnv, currentUser, isWebSocketUpgrade, ownerOf } from "../middleware/identity";
import { readJson, readQuery } from "../validate";
import { ownProject } from "./projects";
import { ownModel } from "./providers";

export const conversationRoutes = new Hono<AppEnv>();

async function ownConversation(db: Db, userId: string, id: string): Promise<ConversationRow> {
  const row = await findOwnConversation(db, userId, id);
  if (!row) throw notFound("No such conversation");
  return row;
}

const stubFor = (env: Env, id: string) => env.CONVERSATION.get(env.CONVERSATION.idFromName(id));

/** What the conversation's object is told of itself: whose it is (ownership checked) and the owner's shard. */
const metaOf = (c: Context<AppEnv>, row: ConversationRow) => ({ conversationId: row.id, ...ownerOf(c) });

conversationRoutes.get("/", async (c) => c.json(await listConversations(c.var.db, currentUser(c).id)));

conversationRoutes.post("/", async (c) => {
  const { title, project_id } = await readJson(c, CreateConversationSchema);
  const userId = currentUser(c).id;
  const project = project_id ? await ownProject(c.var.shard, userId, project_id) : undefined;
  const conversation = await createConversation(c.var.db, userId, title || DEFAULT_TITLE, null, project);
  return c.json(conversation, 201);
});

conversationRoutes.get("/:id", async (c) => {
  const row = await ownConversation(c.var.db, currentUser(c).id, c.req.param("id"));
  const { running } = await stubFor(c.env, row.id).status(metaOf(c, row));
  return c.json({ ...toConversation(row), running });
});

conversationRoutes.patch("/:id", async (c) => {
  const row = await ownConversation(c.var.db, currentUser(c).id, c.req.param("id"));
  const { title, pinned, model, project_id } = await readJson(c, UpdateConversationSchema);
  // Checked before anything changes: a model the user does not have, or a project that is not theirs,
  // refuses the whole PATCH.
  const ref = model ? await ownModel(c.env, ownerOf(c), model, "model") : model;
  if (project_id) await ownProject(c.var.shard, row.userId, project_id);
  let updated = row;
  if (project_id !== undefined) {
    // Its next turn tells the agent, before the next message (the context item, protocol.md).
    await setConversationProject(c.var.shard, row.userId, row.id, project_id);
    updated = { ...updated, projectId: project_id };
  }
  if (ref !== undefined) {
    // The next turn's model (durable-objects/conversation/turn/turn-model.ts); null: the user's default again.
    await setConversationModel(c.var.shard, row.userId, row.id, ref);
    updated = { ...updated, model: ref ? JSON.stringify(ref) : null };
  }
  if (pinned !== undefined) {
    // Pinning is not activity: updated_at (the sidebar's date groups) stays.
    await setPinned(c.var.db, row.userId, row.id, pinned);
    updated = { ...updated, pinned };
  }
  if (title !== undefined) {
    // The user's title wins over the first message's and the model's, now and later (d1/titles.ts).
    const changes = { title, titleSource: "user" as const, updatedAt: nowIso() };
    await c.var.db.update(conversations).set(changes).where(eq(conversations.id, row.id));
    updated = { ...updated, ...changes };
  }
  return c.json(toConversation(updated));
});

conversationRoutes.delete("/:id", async (c) => {
  const user = currentUser(c);
  const row = await ownConversation(c.var.db, user.id, c.req.param("id"));
  // Stop the turns and close the sockets first (subagents' too), so nothing writes into a deleted conversation.
  const ids = [row.id, ...(await descendantIds(c.var.shard, row.id))];
  await Promise.all(ids.map((id) => stubFor(c.env, id).erase({ ...metaOf(c, row), conversationId: id })));
  for (const id of ids.reverse()) {
    // Its files first (R2, then their rows): a deletion cut short is finished by the same request again.
    await deleteConversationFiles(c.var.shard, c.env.FILES, user.id, id);
    await c.var.db.delete(conversations).where(and(eq(conversations.id, id), eq(conversations.userId, user.id)));
  }
  return c.body(null, 204);
});

conversationRoutes.get("/:id/messages", async (c) => {
  const row = await ownConversation(c.var.db, currentUser(c).id, c.req.param("id"));
  const query = readQuery(c, MessagesQuerySchema);
  // The log lives in the conversation's object (its own SQLite); ownership was checked above.
  const page = await stubFor(c.env, row.id).messages(metaOf(c, row), query);
  if (!page) throw notFound(`No message ${query.leaf} in this conversation`);
  return c.json(page);
});

conversationRoutes.post("/:id/notify", async (c) => {
  const row = await ownConversation(c.var.db, currentUser(c).id, c.req.param("id"));
  const notify = await readJson(c, NotifySchema);
  await stubFor(c.env, row.id).notify(metaOf(c, row), notify);
  return c.json({ accepted: true }, 202);
});

conversationRoutes.get("/:id/ws", async (c) => {
  const row = await ownConversation(c.var.db, currentUser(c).id, c.req.param("id"));
  if (!isWebSocketUpgrade(c)) {
    throw new ApiError(426, "invalid_input", "Expected a WebSocket upgrade");
  }
  const credential = c.var.credential;
  if (!credential) throw unauthorized();
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-Conversation-Id", row.id);
  headers.set("X-User-Id", row.userId);
  headers.set("X-Shard", String(c.var.shardIndex));
  // The object checks this on every frame, so signing out or deleting the token closes the socket.
  headers.set("X-Credential", credentialKey(credential));
  return stubFor(c.env, row.id).fetch(new Request(c.req.url, { headers }));
});
