// The conversation index in D1, always looked up together with its owner: another user's conversation
// is indistinguishable from a missing one (the routes answer 404, never 403).
import { and, desc, eq, isNull } from "drizzle-orm";
import { DEFAULT_TITLE } from "../core/title-text";
import type { Conversation } from "../protocol";
import type { Db } from "./client";
import { nowIso } from "./client";
import { parseModelRef } from "./providers";
import { conversations } from "./schema";
import { firstMessageTitleStatement } from "./titles";

export { DEFAULT_TITLE, titleFrom } from "../core/title-text";

export type ConversationRow = typeof conversations.$inferSelect;

export function toConversation(row: ConversationRow): Conversation {
  const model = parseModelRef(row.model);
  return {
    id: row.id,
    title: row.title,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...(row.preview ? { preview: row.preview } : {}),
    pinned: row.pinned,
    title_source: row.titleSource,
    ...(model ? { model } : {}),
    ...(row.projectId ? { project_id: row.projectId } : {}),
  };
}

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
  project?: { id: string; model: string | null },
): Promise<Conversation> {
  const now = nowIso();
  // A title given at creation is the user's own; else the first message names it (d1/titles.ts).
  const titleSource = title === DEFAULT_TITLE ? ("default" as const) : ("user" as const);
  const row = {
    id: crypto.randomUUID(),
    userId,
    title,
    parentId,
    createdAt: now,
    updatedAt: now,
    preview: "",
    titleSource,
    pinned: false,
    // A project's conversation starts with the project's model, which the user may change as any.
    model: project?.model ?? null,
    projectId: project?.id ?? null,
  };
  await db.insert(conversations).values(row);
  return toConversation(row);
}

/** Pins or unpins the user's own conversation; false when there is no such conversation of theirs. */
export async function setPinned(db: Db, userId: string, id: string, pinned: boolean): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ pinned })
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
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

/**
 * Whether the conversation's row is gone (deleted, perhaps with its account): an object woken by its
 * alarm then erases itself rather than run anything. False when D1 cannot say.
 */
export async function conversationGone(d1: D1Database, conversationId: string): Promise<boolean> {
  try {
    return !(await d1.prepare("SELECT 1 FROM conversations WHERE id = ?").bind(conversationId).first());
  } catch {
    return false;
  }
}

/** What one flush of a conversation's outbox changes in the index (index-outbox.ts builds it). */
export interface IndexUpdate {
  conversationId: string;
  userId: string;
  /** User and agent text, one entry per message; `kind` ranks it in search (an answer or a step's narration). */
  entries: { seq: number; role: "user" | "agent"; kind: "user" | "answer" | "step"; text: string }[];
  /** created_at of the newest message flushed. */
  updatedAt: string;
  /** The newest user or agent text flushed, if any. */
  preview?: string;
  /** From the first user message: applied only while the conversation still has the default title (titles.ts). */
  title?: string;
}

const MAX_INDEXED_TEXT = 32_000;
const PREVIEW_LENGTH = 140;

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

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
        `INSERT OR IGNORE INTO message_search (conversation_id, user_id, seq, role, kind, text)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?1)`,
      )
      .bind(u.conversationId, u.userId, e.seq, e.role, e.kind, e.text.slice(0, MAX_INDEXED_TEXT)),
  );
  statements.push(
    d1
      .prepare(
        "UPDATE conversations SET updated_at = max(updated_at, ?2), preview = coalesce(?3, preview) WHERE id = ?1",
      )
      .bind(u.conversationId, u.updatedAt, u.preview === undefined ? null : previewFrom(u.preview)),
  );
  if (u.title) statements.push(firstMessageTitleStatement(d1, u.conversationId, u.title));
  return statements;
}
