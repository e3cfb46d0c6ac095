// The vault's rows in D1, shared by the agent's vault_* tools and the /api/notes routes so the SQL
// and the path rules exist once. Every statement is scoped by user id: another user's note is
// indistinguishable from a missing one. Raw D1 statements because the search needs FTS5 anyway.
import { z } from "zod";
import { MAX_LISTED_NOTES, MAX_NOTE_CONTENT, MAX_NOTE_PATH, NOTE_PATH_CHARS } from "../protocol/notes";
import { HIGHLIGHT, isFtsQueryError, matchAll, matchAny, matchPhrase, matchTerms } from "./fts-query";
import { writeOnce } from "./tool-effects";

/** Lenient about how a path is written (spaces around it, a leading "/", "//"), strict about what it is. */
export const normaliseNotePath = (raw: string) =>
  raw
    .trim()
    .replace(/\/{2,}/g, "/")
    .replace(/^\/+/, "");

const PATH_CHARS_MESSAGE = "may only contain letters, digits, spaces and _ . / -";

export const NotePathSchema = z
  .string()
  .transform(normaliseNotePath)
  .pipe(
    z
      .string()
      .min(1, "path is empty")
      .max(MAX_NOTE_PATH, `path is longer than ${MAX_NOTE_PATH} characters`)
      .regex(NOTE_PATH_CHARS, `path ${PATH_CHARS_MESSAGE}`)
      .refine((path) => !path.includes(".."), "path must not contain ..")
      .refine((path) => !path.endsWith("/"), "path names a folder, not a note"),
  )
  .describe('Note path inside the vault, like "projects/oracle.md". Letters, digits, spaces and _ . / -');

export const NotePrefixSchema = z
  .string()
  .transform(normaliseNotePath)
  .pipe(
    z
      .string()
      .max(MAX_NOTE_PATH, `prefix is longer than ${MAX_NOTE_PATH} characters`)
      .regex(NOTE_PATH_CHARS, `prefix ${PATH_CHARS_MESSAGE}`)
      .refine((path) => !path.includes(".."), "prefix must not contain .."),
  )
  .describe('Only notes whose path starts with this, like "projects/"');

export const NoteContentSchema = z
  .string()
  .max(MAX_NOTE_CONTENT, `content is longer than ${MAX_NOTE_CONTENT} characters`)
  .describe("The note's whole text (Markdown); it replaces what the note held before");

export interface Note {
  path: string;
  content: string;
  bytes: number;
  created_at: string;
  updated_at: string;
}
export type NoteSummary = Pick<Note, "path" | "bytes" | "updated_at">;
export interface SearchHit {
  path: string;
  snippet: string;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const BYTES = "length(CAST(content AS BLOB))";
/** A whole note as the API returns it. */
const NOTE_COLUMNS = `path, content, ${BYTES} AS bytes, created_at, updated_at`;

export async function readNote(db: D1Database, userId: string, path: string): Promise<Note | undefined> {
  const row = await db
    .prepare(`SELECT ${NOTE_COLUMNS} FROM notes WHERE user_id = ? AND path = ?`)
    .bind(userId, path)
    .first<Note>();
  return row ?? undefined;
}

/**
 * Creates or replaces a note; `created` tells which. One batch, so the check and the write are atomic.
 * With a key (an agent tool's call), the write is done at most once under it (d1/tool-effects.ts); a
 * repeat (`repeated`) gives the note as it is now.
 */
export async function writeNote(
  db: D1Database,
  userId: string,
  path: string,
  content: string,
  key?: string,
): Promise<{ note: Note; created: boolean; repeated: boolean }> {
  const effect = await writeOnce(db, userId, key, path, [
    db.prepare("SELECT 1 AS found FROM notes WHERE user_id = ? AND path = ?").bind(userId, path),
    db
      .prepare(
        `INSERT INTO notes (user_id, path, content) VALUES (?, ?, ?)
         ON CONFLICT (user_id, path) DO UPDATE SET content = excluded.content, updated_at = ${NOW}
         RETURNING ${NOTE_COLUMNS}`,
      )
      .bind(userId, path, content),
  ]);
  if (effect.repeated) {
    const note = await readNote(db, userId, effect.target);
    if (!note)
      throw new Error(`the note at ${effect.target} was written before the restart and has been deleted since`);
    return { note, created: false, repeated: true };
  }
  const [before, written] = effect.results;
  const note = written?.results[0] as Note | undefined;
  if (!note) throw new Error("note upsert returned no row");
  return { note, created: !before?.results.length, repeated: false };
}

/** Writes a new note only: undefined when the path is taken, decided by the one statement (no race). */
export async function createNote(
  db: D1Database,
  userId: string,
  path: string,
  content: string,
): Promise<Note | undefined> {
  const row = await db
    .prepare(
      `INSERT INTO notes (user_id, path, content) VALUES (?, ?, ?) ON CONFLICT (user_id, path) DO NOTHING
       RETURNING ${NOTE_COLUMNS}`,
    )
    .bind(userId, path, content)
    .first<Note>();
  return row ?? undefined;
}

export async function deleteNote(db: D1Database, userId: string, path: string): Promise<boolean> {
  const result = await db.prepare("DELETE FROM notes WHERE user_id = ? AND path = ?").bind(userId, path).run();
  return result.meta.changes > 0;
}

/** Sorted by path. A prefix is compared with substr, not LIKE, so "_" and "%" in it are literal. */
export async function listNotes(db: D1Database, userId: string, prefix = ""): Promise<NoteSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT path, updated_at, ${BYTES} AS bytes FROM notes
       WHERE user_id = ?1 AND substr(path, 1, length(?2)) = ?2 ORDER BY path LIMIT ?3`,
    )
    .bind(userId, prefix, MAX_LISTED_NOTES)
    .all<NoteSummary>();
  return results;
}

/**
 * Best matches first (bm25, a hit in the path weighing double). Every term must match; when none
 * does, any term may, so a long question still finds something. Text FTS5 refuses even when quoted
 * is retried as one phrase, and a query that still fails finds nothing rather than throwing.
 */
export async function searchNotes(db: D1Database, userId: string, query: string, limit: number): Promise<SearchHit[]> {
  const terms = matchTerms(query);
  if (!terms.length) return [];
  try {
    const hits = await runMatch(db, userId, matchAll(terms), limit);
    return hits.length || terms.length === 1 ? hits : await runMatch(db, userId, matchAny(terms), limit);
  } catch (err) {
    if (!isFtsQueryError(err)) throw err;
  }
  try {
    return await runMatch(db, userId, matchPhrase(query), limit);
  } catch (err) {
    if (isFtsQueryError(err)) return [];
    throw err;
  }
}

async function runMatch(db: D1Database, userId: string, match: string, limit: number): Promise<SearchHit[]> {
  const { results } = await db
    .prepare(
      `SELECT notes.path AS path, snippet(notes_fts, 1, ?4, ?5, '…', 16) AS snippet
       FROM notes_fts JOIN notes ON notes.id = notes_fts.rowid
       WHERE notes_fts MATCH ?1 AND notes.user_id = ?2
       ORDER BY bm25(notes_fts, 2.0, 1.0) LIMIT ?3`,
    )
    .bind(match, userId, limit, HIGHLIGHT.open, HIGHLIGHT.close)
    .all<SearchHit>();
  return results;
}
