// Before each conversation kept its log in its own object's SQLite, every message was a row of one
// shared D1 table. An object moves its conversation's rows out the first time it opens
// (durable-objects/conversation/log/legacy-import.ts); these are the two D1 sides of that move.

/** The same envelope columns and JSON payload as the object's own log (local-tables.ts MessageRow). */
export interface LegacyRow {
  seq: number;
  id: string;
  role: string;
  created_at: string;
  payload: string;
}

export async function legacyMessages(d1: D1Database, conversationId: string): Promise<LegacyRow[]> {
  const { results } = await d1
    .prepare("SELECT seq, id, role, created_at, payload FROM messages WHERE conversation_id = ? ORDER BY seq")
    .bind(conversationId)
    .all<LegacyRow>();
  return results;
}

/** Run once the rows are safely in the object (from its outbox, so a failure is retried). */
export const purgeLegacyMessages = (d1: D1Database, conversationId: string): D1PreparedStatement =>
  d1.prepare("DELETE FROM messages WHERE conversation_id = ?").bind(conversationId);
