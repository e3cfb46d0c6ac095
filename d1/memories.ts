// What the agent remembers of a user, in D1 (docs/protocol.md "Projects, instructions and memory"): the
// memory tool and the Settings routes write here; a conversation reads its scope's at its start. Always
// with the owner: another user's memory is a missing one.
import { and, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { MAX_APPLIED_MEMORIES, MAX_MEMORIES, type Memory } from "../protocol/projects";
import { database, nowIso } from "./client";
import { projectOfConversation } from "./projects";
import { memories } from "./schema";

export type MemoryRow = typeof memories.$inferSelect;

export const newMemoryId = () => `m_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

export const toMemory = (row: MemoryRow): Memory => ({
  id: row.id,
  text: row.text,
  project_id: row.projectId,
  conversation_id: row.conversationId,
  seq: row.seq,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export async function listMemories(d1: D1Database, userId: string): Promise<Memory[]> {
  const rows = await database(d1)
    .select()
    .from(memories)
    .where(eq(memories.userId, userId))
    .orderBy(desc(memories.updatedAt), desc(memories.id));
  return rows.map(toMemory);
}

/**
 * The memories a new conversation starts with, newest first: the user's own and its project's (whichever
 * it is in); never another project's. Read with the turn's settings (user-settings.ts), used only when a
 * context item is written.
 */
export const memoriesInScopeQuery = (d1: D1Database, userId: string, conversationId: string) => {
  const project = projectOfConversation(d1, userId, conversationId);
  return database(d1)
    .select({ id: memories.id, text: memories.text, projectId: memories.projectId })
    .from(memories)
    .where(and(eq(memories.userId, userId), or(isNull(memories.projectId), inArray(memories.projectId, project))))
    .orderBy(desc(memories.updatedAt), desc(memories.id))
    .limit(MAX_APPLIED_MEMORIES + 1);
};

export async function findMemory(d1: D1Database, userId: string, id: string): Promise<MemoryRow | undefined> {
  const rows = await database(d1)
    .select()
    .from(memories)
    .where(and(eq(memories.id, id), eq(memories.userId, userId)))
    .limit(1);
  return rows[0];
}

export interface NewMemory {
  /** Given by the memory tool (the call's key), so a save repeated after a restart is the same memory. */
  id?: string;
  text: string;
  projectId: string | null;
  conversationId: string | null;
  seq: number | null;
}

/**
 * Saves a memory; the one already saved under that id when there is one (a repeated call); undefined
 * when the user has MAX_MEMORIES already (counted in the same statement, so concurrent saves hold it).
 */
export async function createMemory(d1: D1Database, userId: string, input: NewMemory): Promise<MemoryRow | undefined> {
  const now = nowIso();
  const row: MemoryRow = { id: input.id ?? newMemoryId(), userId, ...input, createdAt: now, updatedAt: now };
  const { meta } = await d1
    .prepare(
      `INSERT INTO memories (id, user_id, project_id, text, conversation_id, seq, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7 WHERE (SELECT count(*) FROM memories WHERE user_id = ?2) < ?8
       ON CONFLICT (id) DO NOTHING`,
    )
    .bind(row.id, userId, row.projectId, row.text, row.conversationId, row.seq, now, MAX_MEMORIES)
    .run();
  return meta.changes === 1 ? row : await findMemory(d1, userId, row.id);
}

/** Rewrites the user's memory; undefined when there is no such memory of theirs. */
export async function updateMemory(
  d1: D1Database,
  userId: string,
  id: string,
  text: string,
): Promise<MemoryRow | undefined> {
  const rows = await database(d1)
    .update(memories)
    .set({ text, updatedAt: nowIso() })
    .where(and(eq(memories.id, id), eq(memories.userId, userId)))
    .returning();
  return rows[0];
}

/** Forgets the user's memory: the row as it was, or undefined when there was none of theirs. */
export async function deleteMemory(d1: D1Database, userId: string, id: string): Promise<MemoryRow | undefined> {
  const rows = await database(d1)
    .delete(memories)
    .where(and(eq(memories.id, id), eq(memories.userId, userId)))
    .returning();
  return rows[0];
}
