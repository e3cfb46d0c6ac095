// The conversation index in D1, always looked up together with its owner: another user's conversation
// is indistinguishable from a missing one (the routes answer 404, never 403).
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import { type Conversation, type Message, MessageSchema } from "../protocol";
import type { Db } from "./client";
import { nowIso } from "./client";
import { conversations, messages } from "./schema";

type Row = typeof conversations.$inferSelect;
export const toConversation = (row: Row): Conversation => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export type ConversationRow = Row;

export async function findOwnConversation(db: Db, userId: string, id: string): Promise<Row | undefined> {
  return (
    await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
      .limit(1)
  )[0];
}

export async function listConversations(db: Db, userId: string): Promise<Conversation[]> {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), isNull(conversations.parentId)))
    .orderBy(desc(conversations.updatedAt));
  return rows.map(toConversation);
}

export async function createConversation(
  db: Db,
  userId: string,
  title: string,
  parentId: string | null = null,
): Promise<Conversation> {
  const now = nowIso();
  const row = { id: crypto.randomUUID(), userId, title, parentId, createdAt: now, updatedAt: now };
  await db.insert(conversations).values(row);
  return toConversation(row);
}

export async function messagesAfter(db: Db, conversationId: string, after: number, limit: number): Promise<Message[]> {
  const rows = await db
    .select({
      seq: messages.seq,
      id: messages.id,
      role: messages.role,
      createdAt: messages.createdAt,
      payload: messages.payload,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, after)))
    .orderBy(asc(messages.seq))
    .limit(limit);
  return rows.map(rowToMessage);
}

export function rowToMessage(row: {
  seq: number;
  id: string;
  role: string;
  createdAt: string;
  payload: string;
}): Message {
  return MessageSchema.parse({
    ...JSON.parse(row.payload),
    seq: row.seq,
    id: row.id,
    role: row.role,
    created_at: row.createdAt,
  });
}

/** Every subagent conversation below this one, at any depth. */
export async function descendantIds(d1: D1Database, conversationId: string): Promise<string[]> {
  const { results } = await d1
    .prepare(
      `WITH RECURSIVE tree(id) AS (
         SELECT id FROM conversations WHERE parent_id = ?1
         UNION ALL SELECT c.id FROM conversations c JOIN tree t ON c.parent_id = t.id
       ) SELECT id FROM tree`,
    )
    .bind(conversationId)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}
