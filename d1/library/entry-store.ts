// The SQL shared by knowledge-store.ts and workflow-store.ts: both tables have the same columns, keyed
// by (user_id, slug). Every statement is scoped by user id, so another user's entry is
// indistinguishable from a missing one, and every call first gives a new user the default entries.

import type { EntryInput, LibraryEntry, LibraryEntrySummary, LibraryKind } from "../../protocol/library";
import { ensureLibrarySeeded } from "./defaults";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** `kind` is the table name; it comes from the two callers' constants, never from a request. */
const TABLES: Record<LibraryKind, string> = { knowledge: "knowledge", workflows: "workflows" };

export async function listEntries(d1: D1Database, kind: LibraryKind, userId: string): Promise<LibraryEntrySummary[]> {
  await ensureLibrarySeeded(d1, userId);
  const { results } = await d1
    .prepare(`SELECT slug, title, body, updated_at FROM ${TABLES[kind]} WHERE user_id = ? ORDER BY slug`)
    .bind(userId)
    .all<LibraryEntrySummary>();
  return results;
}

export async function getEntry(
  d1: D1Database,
  kind: LibraryKind,
  userId: string,
  slug: string,
): Promise<LibraryEntry | undefined> {
  await ensureLibrarySeeded(d1, userId);
  const row = await d1
    .prepare(`SELECT slug, title, body, created_at, updated_at FROM ${TABLES[kind]} WHERE user_id = ? AND slug = ?`)
    .bind(userId, slug)
    .first<LibraryEntry>();
  return row ?? undefined;
}

/** Creates the entry or replaces its title and body. */
export async function putEntry(
  d1: D1Database,
  kind: LibraryKind,
  userId: string,
  slug: string,
  input: EntryInput,
): Promise<LibraryEntry> {
  await ensureLibrarySeeded(d1, userId);
  const row = await d1
    .prepare(
      `INSERT INTO ${TABLES[kind]} (user_id, slug, title, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, slug) DO UPDATE SET title = excluded.title, body = excluded.body, updated_at = ${NOW}
       RETURNING slug, title, body, created_at, updated_at`,
    )
    .bind(userId, slug, input.title, input.body)
    .first<LibraryEntry>();
  if (!row) throw new Error(`${kind} upsert returned no row`);
  return row;
}

/** False when there was no such entry. Seeds first, so deleting a default before ever listing sticks. */
export async function deleteEntry(d1: D1Database, kind: LibraryKind, userId: string, slug: string): Promise<boolean> {
  await ensureLibrarySeeded(d1, userId);
  const result = await d1
    .prepare(`DELETE FROM ${TABLES[kind]} WHERE user_id = ? AND slug = ?`)
    .bind(userId, slug)
    .run();
  return result.meta.changes > 0;
}
