// Every read of the log's `messages` table (tables: local-tables.ts), so that nothing outside log/ has
// SQL on it: the pages and paths MessageLog serves (message-log.ts), and the questions others ask of the
// log: which triggers a notification already carries (the notify inbox), whether a scheduled run was
// already posted (scheduled-runs.ts), what the D1 index has not had yet (index-outbox.ts).
import type { Message } from "../../../protocol";
import type { MessageRow } from "./local-tables";

const COLUMNS = "seq, id, role, created_at, payload, parent";
/**
 * The seqs above `?2` of the path that ends at `?1`: a walk up the parents, each step a primary-key
 * lookup, that stops below `?2` (a parent's seq is always below its child's).
 */
const PATH_SEQS = `WITH RECURSIVE path(seq) AS (
  SELECT seq FROM messages WHERE seq = ?1 AND seq > ?2
  UNION ALL SELECT m.parent FROM messages m JOIN path ON m.seq = path.seq WHERE m.parent > ?2
) SELECT seq FROM path ORDER BY seq`;

// Rows are only ever written by `append` from validated drafts, so they are not parsed again here.
const toMessage = (row: MessageRow): Message =>
  ({
    ...JSON.parse(row.payload),
    seq: row.seq,
    id: row.id,
    role: row.role,
    created_at: row.created_at,
    parent_seq: row.parent ?? row.seq - 1,
  }) as Message;

/** A message as the D1 index reads it. */
export type IndexRow = Omit<MessageRow, "id" | "parent">;

export class LogQueries {
  private read = 0;

  constructor(readonly sql: SqlStorage) {}

  /** Rows read from SQLite so far by the log's own reads: what a wake costs (tests and benchmarks read it). */
  get rowsRead(): number {
    return this.read;
  }

  lastSeq(): number {
    return this.select<{ seq: number }>("SELECT coalesce(max(seq), 0) AS seq FROM messages")[0]?.seq ?? 0;
  }

  message(seq: number): Message | undefined {
    return this.select<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE seq = ?`, seq).map(toMessage)[0];
  }

  /** The newest message at or below `seq`: where the path through `seq` ends (always a leaf of the tree). */
  newestUnder(seq: number): number {
    const rows = this.select<{ seq: number }>(
      `WITH RECURSIVE below(seq) AS (
         SELECT ?1 UNION ALL SELECT m.seq FROM messages m JOIN below ON m.parent = below.seq
       ) SELECT max(seq) AS seq FROM below`,
      seq,
    );
    return rows[0]?.seq ?? seq;
  }

  /** The seqs of the path that ends at `leaf`, above `after` and at most `through`. */
  pathSeqs(leaf: number, after: number, through: number): number[] {
    if (leaf <= after) return [];
    return this.select<{ seq: number }>(PATH_SEQS, leaf, after).flatMap((r) => (r.seq <= through ? [r.seq] : []));
  }

  /** Up to `limit` messages above `after` and at most `through`, in seq order. */
  linearPage(after: number, limit: number, through: number): Message[] {
    return this.select<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
      after,
      through,
      limit,
    ).map(toMessage);
  }

  /** The messages of these seqs, in seq order. */
  rows(seqs: readonly number[]): Message[] {
    if (!seqs.length) return [];
    return this.select<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      JSON.stringify(seqs),
    ).map(toMessage);
  }

  /** The external triggers (notify) that persisted notifications already carry. */
  deliveredTriggerIds(): Set<string> {
    const rows = this.select<{ value: string }>(
      `SELECT t.value AS value FROM messages, json_each(messages.payload, '$.item.trigger_ids') AS t
       WHERE messages.role = 'system'`,
    );
    return new Set(rows.map((r) => r.value));
  }

  /** The conversation has a user's message (a project's schedule then posts its next run into a new one). */
  hasUserMessage(): boolean {
    return this.sql.exec("SELECT 1 FROM messages WHERE role = 'user' LIMIT 1").toArray().length > 0;
  }

  /** A scheduled run's message is in the log already (posted before a crash that kept it queued). */
  scheduledRunPosted(scheduleId: string, dueAt: string): boolean {
    const rows = this.sql
      .exec(
        `SELECT 1 FROM messages WHERE role = 'user' AND json_extract(payload, '$.origin.schedule_id') = ?
           AND json_extract(payload, '$.origin.due_at') = ? LIMIT 1`,
        scheduleId,
        dueAt,
      )
      .toArray();
    return rows.length > 0;
  }

  /** The user message a client sent with `clientId` (chat `client_id`), on any branch; undefined if none. */
  userMessageSent(clientId: string): number | undefined {
    // The expression and the condition are the index's (local-tables.ts), so this is one index lookup.
    const row = this.sql
      .exec<{ seq: number }>(
        "SELECT seq FROM messages WHERE role = 'user' AND json_extract(payload, '$.client_id') = ? LIMIT 1",
        clientId,
      )
      .toArray()[0];
    return row?.seq;
  }

  /** Up to `limit` messages above `after`, as the D1 index reads them. */
  indexRows(after: number, limit: number): IndexRow[] {
    return this.sql
      .exec<IndexRow>(
        "SELECT seq, role, created_at, payload FROM messages WHERE seq > ? ORDER BY seq LIMIT ?",
        after,
        limit,
      )
      .toArray();
  }

  /** The conversation's first user message (what it is named after). */
  firstUserMessage(): { seq: number; payload: string } | undefined {
    return this.sql
      .exec<{ seq: number; payload: string }>(
        "SELECT seq, payload FROM messages WHERE role = 'user' ORDER BY seq LIMIT 1",
      )
      .toArray()[0];
  }

  private select<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.read += cursor.rowsRead;
    return rows;
  }
}
