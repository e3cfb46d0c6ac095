// The conversation index in D1, always looked up together with its owner: another user's conversation
// is indistinguishable from a missing one (the routes answer 404, never 403).
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Conversation } from "../protocol";
import type { Db } from "./client";
import { nowIso } from "./client";
import { conversations } from "./schema";

/** What a conversation is called until its first message names it. */
export const DEFAULT_TITLE = "New conversation";

export type ConversationRow = typeof conversations.$inferSelect;

export const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  ...(row.preview ? { preview: row.preview } : {}),
});

export async function findOwnConversation(db: Db, userId: string, id: string): Promise<ConversationRow | undefined> {
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
  const row = { id: crypto.randomUUID(), userId, title, parentId, createdAt: now, updatedAt: now, preview: "" };
  await db.insert(conversations).values(row);
  return toConversation(row);
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

/** What one flush of a conversation's outbox changes in the index (index-outbox.ts builds it). */
export interface IndexUpdate {
  conversationId: string;
  userId: string;
  /** User and agent text, one entry per message. */
  entries: { seq: number; role: "user" | "agent"; text: string }[];
  /** created_at of the newest message flushed. */
  updatedAt: string;
  /** The newest user or agent text flushed, if any. */
  preview?: string;
  /** From the first user message: applied only while the conversation still has the default title. */
  title?: string;
}

const MAX_INDEXED_TEXT = 32_000;
const PREVIEW_LENGTH = 140;

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** A title from the start of a message's first line. */
export function titleFrom(content: string): string {
  const line = oneLine(content.trim().split("\n")[0] ?? "");
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}

export function previewFrom(text: string): string {
  const line = oneLine(text);
  return line.length > PREVIEW_LENGTH ? `${line.slice(0, PREVIEW_LENGTH - 1).trimEnd()}…` : line;
}

/**
 * The statements of one index update, for one D1 batch (a transaction). Idempotent, so a flush that
 * landed but was not recorded can run again; and nothing is written for a conversation already
 * deleted, so a late flush cannot bring its text back.
 */
export function indexStatements(d1: D1Database, u: IndexUpdate): D1PreparedStatement[] {
  const statements = u.entries.map((e) =>
    d1
      .prepare(
        `INSERT OR IGNORE INTO message_search (conversation_id, user_id, seq, role, text)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?1)`,
      )
      .bind(u.conversationId, u.userId, e.seq, e.role, e.text.slice(0, MAX_INDEXED_TEXT)),
  );
  statements.push(
    d1
      .prepare(
        "UPDATE conversations SET updated_at = max(updated_at, ?2), preview = coalesce(?3, preview) WHERE id = ?1",
      )
      .bind(u.conversationId, u.updatedAt, u.preview === undefined ? null : previewFrom(u.preview)),
  );
  if (u.title) {
    statements.push(
      d1
        .prepare("UPDATE conversations SET title = ?2 WHERE id = ?1 AND title = ?3")
        .bind(u.conversationId, u.title, DEFAULT_TITLE),
    );
  }
  return statements;
}
