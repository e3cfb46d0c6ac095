// Files users attached (docs/protocol.md "Files"): a row in the owner's shard, the bytes in R2 at
// `files/<user>/<id>`, the text the model reads (ExtractedText as JSON) at `files/<user>/<id>.text`.
// Every statement is scoped by user id, so another user's file is indistinguishable from a missing one.
// The one store of a file for the Worker and the conversation object alike: both reach R2 through here.

import { toBase64Url } from "../core/base64";
import type { Sniffed } from "../core/file-sniff";
import { type ExtractedText, lineCount } from "../core/file-text";
import type { Attachment, FileObject } from "../protocol";

export interface FileRow {
  id: string;
  user_id: string;
  conversation_id: string | null;
  /** Set for a project's file (d1/projects.ts). */
  project_id: string | null;
  name: string;
  content_type: string;
  kind: FileObject["kind"];
  size: number;
  pages: number | null;
  lines: number | null;
  width: number | null;
  height: number | null;
  created_at: string;
}

/** The operator's limits (wrangler.toml [vars] or the environment); the defaults hold when unset. */
export interface FileLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}
const MIB = 1024 * 1024;
const positive = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return raw?.trim() && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
};
export const fileLimits = (env: { FILE_MAX_BYTES?: string; FILES_MAX_TOTAL_BYTES?: string }): FileLimits => ({
  maxFileBytes: positive(env.FILE_MAX_BYTES, 20 * MIB),
  maxTotalBytes: positive(env.FILES_MAX_TOTAL_BYTES, 500 * MIB),
});

export const newFileId = () => `f_${toBase64Url(crypto.getRandomValues(new Uint8Array(15)))}`;
export const fileKey = (userId: string, id: string) => `files/${userId}/${id}`;
const textKey = (userId: string, id: string) => `${fileKey(userId, id)}.text`;

export const fileUrl = (id: string) => `/api/files/${id}/content`;

/** The columns an attachment is made of. */
export type AttachmentColumns = Pick<
  FileRow,
  "id" | "name" | "content_type" | "size" | "pages" | "lines" | "width" | "height"
> & { kind: string };

export function toAttachment(row: AttachmentColumns): Attachment {
  return {
    id: row.id,
    name: row.name,
    content_type: row.content_type,
    kind: row.kind as Attachment["kind"],
    size: row.size,
    ...(row.pages !== null ? { pages: row.pages } : {}),
    ...(row.lines !== null ? { lines: row.lines } : {}),
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
  };
}

export const toFileObject = (row: FileRow): FileObject => ({
  ...toAttachment(row),
  conversation_id: row.conversation_id,
  created_at: row.created_at,
  url: fileUrl(row.id),
});

export interface NewFile {
  id: string;
  userId: string;
  conversationId?: string;
  name: string;
  sniffed: Sniffed;
  size: number;
  pages?: number;
  lines?: number;
}

/**
 * Keeps a file's row if the user's files stay within `maxTotal` with it: one statement, so two uploads
 * at once cannot both pass the total. False: it would pass it (the caller deletes what it put in R2).
 */
async function insertFileWithin(db: D1Database, file: NewFile, maxTotal: number): Promise<FileRow | undefined> {
  const { sniffed } = file;
  const row = await db
    .prepare(
      `INSERT INTO files (id, user_id, conversation_id, name, content_type, kind, size, pages, lines, width, height, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE (SELECT COALESCE(SUM(size), 0) FROM files WHERE user_id = ?2) + ?7 <= ?12
       RETURNING *`,
    )
    .bind(
      file.id,
      file.userId,
      file.conversationId ?? null,
      file.name,
      sniffed.content_type,
      sniffed.kind,
      file.size,
      file.pages ?? null,
      file.lines ?? null,
      sniffed.width ?? null,
      sniffed.height ?? null,
      maxTotal,
    )
    .first<FileRow>();
  return row ?? undefined;
}

export async function usedBytes(db: D1Database, userId: string): Promise<number> {
  const row = await db
    .prepare("SELECT COALESCE(SUM(size), 0) AS used FROM files WHERE user_id = ?")
    .bind(userId)
    .first<{ used: number }>();
  return row?.used ?? 0;
}

export async function getFile(db: D1Database, userId: string, id: string): Promise<FileRow | undefined> {
  const row = await db.prepare("SELECT * FROM files WHERE id = ? AND user_id = ?").bind(id, userId).first<FileRow>();
  return row ?? undefined;
}

export async function listFiles(db: D1Database, userId: string, limit = 500): Promise<FileRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM files WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
    .bind(userId, limit)
    .all<FileRow>();
  return results;
}

/** The files a conversation's messages carry, oldest first. */
export async function conversationFiles(db: D1Database, userId: string, conversationId: string): Promise<FileRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM files WHERE user_id = ? AND conversation_id = ? ORDER BY created_at, id")
    .bind(userId, conversationId)
    .all<FileRow>();
  return results;
}

/**
 * The files a conversation's agent reads: its project's (whichever project it is in now), then those its
 * messages carry, each oldest first.
 */
export async function readableFiles(db: D1Database, userId: string, conversationId: string): Promise<FileRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM files WHERE user_id = ?1 AND (conversation_id = ?2 OR project_id =
         (SELECT project_id FROM conversations WHERE id = ?2 AND user_id = ?1))
       ORDER BY conversation_id IS NOT NULL, created_at, id`,
    )
    .bind(userId, conversationId)
    .all<FileRow>();
  return results;
}

/** A project's files, oldest first. */
export async function projectFiles(db: D1Database, userId: string, projectId: string): Promise<FileRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM files WHERE user_id = ? AND project_id = ? ORDER BY created_at, id")
    .bind(userId, projectId)
    .all<FileRow>();
  return results;
}

/** Gives an uploaded file no message carries to a project; undefined when there is no such file of the user's. */
export async function claimForProject(
  db: D1Database,
  userId: string,
  projectId: string,
  id: string,
): Promise<FileRow | undefined> {
  const row = await db
    .prepare(
      `UPDATE files SET project_id = ? WHERE id = ? AND user_id = ?
       AND conversation_id IS NULL AND (project_id IS NULL OR project_id = ?) RETURNING *`,
    )
    .bind(projectId, id, userId, projectId)
    .first<FileRow>();
  return row ?? undefined;
}

/** Deletes a project's files (one, or with no `id` all): their objects first, as a conversation's. */
export async function deleteProjectFiles(
  db: D1Database,
  bucket: R2Bucket,
  userId: string,
  projectId: string,
  id?: string,
): Promise<number> {
  const rows = (await projectFiles(db, userId, projectId)).filter((r) => id === undefined || r.id === id);
  await deleteObjects(
    bucket,
    rows.flatMap((r) => [fileKey(userId, r.id), textKey(userId, r.id)]),
  );
  for (const row of rows) await db.prepare("DELETE FROM files WHERE id = ? AND user_id = ?").bind(row.id, userId).run();
  return rows.length;
}

/**
 * Gives the files to the conversation a message carries them in: each must be the user's and carried by
 * no message yet or already this conversation's. Answers the rows in the order of `ids`, or the first id
 * that is not such a file.
 */
export async function claimFiles(
  db: D1Database,
  userId: string,
  conversationId: string,
  ids: readonly string[],
): Promise<{ rows: FileRow[] } | { missing: number }> {
  if (!ids.length) return { rows: [] };
  const marks = ids.map(() => "?").join(", ");
  const { results } = await db
    .prepare(
      `UPDATE files SET conversation_id = ? WHERE user_id = ? AND id IN (${marks})
       AND (conversation_id IS NULL OR conversation_id = ?) AND project_id IS NULL RETURNING *`,
    )
    .bind(conversationId, userId, ...ids, conversationId)
    .all<FileRow>();
  const byId = new Map(results.map((r) => [r.id, r]));
  const missing = ids.findIndex((id) => !byId.has(id));
  if (missing >= 0) return { missing };
  return { rows: ids.map((id) => byId.get(id) as FileRow) };
}

/** Deletes a file no message carries yet; "carried" when one does (it goes with its conversation). */
export async function deleteUnsentFile(
  db: D1Database,
  bucket: R2Bucket,
  userId: string,
  id: string,
): Promise<"deleted" | "carried" | "missing"> {
  const row = await getFile(db, userId, id);
  if (!row) return "missing";
  if (row.conversation_id !== null || row.project_id !== null) return "carried";
  await deleteFileObjects(bucket, userId, id);
  await db.prepare("DELETE FROM files WHERE id = ? AND user_id = ?").bind(id, userId).run();
  return "deleted";
}

/**
 * Deletes the user's files that no message took within `olderThanMs` (uploaded, then the tab was closed
 * before sending): what the composer's remove would have done. A few at a time, oldest first.
 */
export async function sweepUnsentFiles(db: D1Database, bucket: R2Bucket, userId: string, olderThanMs: number) {
  const before = new Date(Date.now() - olderThanMs).toISOString();
  const { results } = await db
    .prepare(
      "SELECT id FROM files WHERE user_id = ? AND conversation_id IS NULL AND project_id IS NULL AND created_at < ? ORDER BY created_at LIMIT 50",
    )
    .bind(userId, before)
    .all<{ id: string }>();
  for (const { id } of results) await deleteUnsentFile(db, bucket, userId, id);
}

/** A file's objects: its bytes and its text. */
export const deleteFileObjects = (bucket: R2Bucket, userId: string, id: string) =>
  bucket.delete([fileKey(userId, id), textKey(userId, id)]);

/** Deletes a conversation's files: their objects first, so a row never points at nothing it could serve. */
export async function deleteConversationFiles(
  db: D1Database,
  bucket: R2Bucket,
  userId: string,
  conversationId: string,
): Promise<number> {
  const rows = await conversationFiles(db, userId, conversationId);
  await deleteObjects(
    bucket,
    rows.flatMap((r) => [fileKey(userId, r.id), textKey(userId, r.id)]),
  );
  await db.prepare("DELETE FROM files WHERE user_id = ? AND conversation_id = ?").bind(userId, conversationId).run();
  return rows.length;
}

/** Deletes every object of the user's in R2 (an account's deletion: its rows go with the account's). */
export async function deleteUserObjects(bucket: R2Bucket, userId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `files/${userId}/`, ...(cursor ? { cursor } : {}) });
    await deleteObjects(
      bucket,
      page.objects.map((o) => o.key),
    );
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** R2 deletes at most 1,000 keys a call. */
async function deleteObjects(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

/**
 * Keeps a new file: its bytes and text in R2, then its row if the user's files stay within `maxTotal`;
 * undefined (its objects deleted again) when they would not. The one way a file is made: an upload, or
 * a note the agent attaches.
 */
export async function storeFile(
  db: D1Database,
  bucket: R2Bucket,
  file: {
    userId: string;
    conversationId?: string;
    name: string;
    sniffed: Sniffed;
    bytes: Uint8Array;
    text?: ExtractedText;
  },
  maxTotal: number,
): Promise<FileRow | undefined> {
  const { userId, sniffed, bytes, text } = file;
  const id = newFileId();
  await putFileObjects(bucket, userId, id, bytes, sniffed.content_type, text);
  const row = await insertFileWithin(
    db,
    {
      id,
      userId,
      ...(file.conversationId ? { conversationId: file.conversationId } : {}),
      name: file.name,
      sniffed,
      size: bytes.length,
      ...(text?.pages ? { pages: text.pages.length } : {}),
      ...(text ? { lines: lineCount(text.text) } : {}),
    },
    maxTotal,
  );
  if (!row) await deleteFileObjects(bucket, userId, id);
  return row;
}

async function putFileObjects(
  bucket: R2Bucket,
  userId: string,
  id: string,
  bytes: Uint8Array,
  contentType: string,
  text: ExtractedText | undefined,
): Promise<void> {
  await bucket.put(fileKey(userId, id), bytes, { httpMetadata: { contentType } });
  if (text) await bucket.put(textKey(userId, id), JSON.stringify(text));
}

export async function readFileText(bucket: R2Bucket, userId: string, id: string): Promise<ExtractedText | undefined> {
  const object = await bucket.get(textKey(userId, id));
  return object ? ((await object.json()) as ExtractedText) : undefined;
}

export async function readFileBytes(bucket: R2Bucket, userId: string, id: string): Promise<R2ObjectBody | null> {
  return bucket.get(fileKey(userId, id));
}
