// The conversation's message log, in the object's own SQLite: every message gets the next seq and is
// written locally, then handed to `onPersisted` (the broadcast, which the runtime's output gate holds
// until the write is durable). Writes are synchronous, so seq has no gaps and broadcasts leave in seq
// order. Only what a reader needs is read: a wake reads max(seq) and the current leaf, a page reads its
// page, and the current path is loaded only when a turn builds its context (then kept in step with appends).
//
// The log is a tree of branches (docs/protocol.md "Branches"): each message follows a parent, and the
// conversation has a current leaf. A new message always follows the leaf and becomes it, so the common
// case (no branching) writes nothing more than the message. The model and a linear client read the
// current path: the leaf's ancestors, in seq order (a parent's seq is always below its child's).

import { defuseItem } from "../../../agent/system-items/forgery";
import type { Message, MessageDraft } from "../../../protocol";
import { deleteState, insertMessage, type MessageRow, readState, writeState } from "./local-tables";

const COLUMNS = "seq, id, role, created_at, payload, parent";
const PAGE = 500;
/** The current leaf, stored only while it is not the last message (after a switch or a branch point). */
const LEAF_KEY = "leaf";
/** Set once the leaf first left the last message: until then the log is one line and its path is all of it. */
const BRANCHED_KEY = "branched";
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

export type LogView = { view: "path" | "tree"; leaf?: number };

export class MessageLog {
  /** The current path, once read; grows with appends, replaced when the leaf moves elsewhere. */
  private currentPath: Message[] | undefined;
  private last: number;
  private leaf: number;
  private branched: boolean;
  private read = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly onPersisted: (message: Message) => void,
  ) {
    this.last = this.select<{ seq: number }>("SELECT coalesce(max(seq), 0) AS seq FROM messages")[0]?.seq ?? 0;
    const stored = readState(sql, LEAF_KEY);
    const leaf = stored === undefined ? Number.NaN : Number(stored);
    this.leaf = Number.isInteger(leaf) && leaf >= 0 && leaf <= this.last ? leaf : this.last;
    this.branched = readState(sql, BRANCHED_KEY) !== undefined;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** The last message of the current path (0: the path is empty, as before a first message's edit). */
  get leafSeq(): number {
    return this.leaf;
  }

  /** Rows this instance has read from SQLite so far: what a wake costs (tests and benchmarks read it). */
  get rowsRead(): number {
    return this.read;
  }

  /** The current path, for building a turn's context: the same array while it only grows. */
  path(): readonly Message[] {
    this.currentPath ??= this.pathTo(this.leaf);
    return this.currentPath;
  }

  /** The path that ends at `leaf`, in seq order (empty for 0 or a seq the log does not have). */
  pathTo(leaf: number): Message[] {
    if (leaf <= 0 || leaf > this.last) return [];
    return [...this.range(0, leaf, { view: "path", leaf })];
  }

  has(seq: number): boolean {
    return Number.isInteger(seq) && seq >= 1 && seq <= this.last;
  }

  /** One message by seq. */
  get(seq: number): Message | undefined {
    if (!this.has(seq)) return undefined;
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

  /** Moves the current leaf (a switch, or the branch point of an edit or regenerate). */
  moveLeaf(seq: number): void {
    if (seq !== 0 && !this.has(seq)) throw new Error(`no message ${seq}`);
    if (seq === this.leaf) return;
    this.leaf = seq;
    this.currentPath = undefined;
    if (seq === this.last) deleteState(this.sql, LEAF_KEY);
    else writeState(this.sql, LEAF_KEY, String(seq));
    if (seq !== this.last && !this.branched) {
      this.branched = true;
      writeState(this.sql, BRANCHED_KEY, "1");
    }
  }

  /** Up to `limit` messages after `after` (and at most `through`), in seq order: every branch's, or one path's. */
  page(after: number, limit: number, through = Number.MAX_SAFE_INTEGER, view: LogView = { view: "tree" }): Message[] {
    const path = this.onPath(view);
    if (!path) return this.linearPage(after, limit, Math.min(through, this.bound(view)));
    return this.rows(path(after, through).slice(0, limit));
  }

  /** Every message after `after` through `through`, a page at a time (a resume can span the whole log). */
  *range(after: number, through: number, view: LogView = { view: "tree" }): Generator<Message> {
    const path = this.onPath(view);
    if (path) {
      // The path's seqs are walked once; its messages are read a page at a time.
      const seqs = path(after, through);
      for (let i = 0; i < seqs.length; i += PAGE) yield* this.rows(seqs.slice(i, i + PAGE));
      return;
    }
    const bound = Math.min(through, this.bound(view));
    let from = after;
    while (from < bound) {
      const page = this.linearPage(from, PAGE, bound);
      yield* page;
      const end = page.at(-1);
      if (!end || page.length < PAGE) return;
      from = end.seq;
    }
  }

  /**
   * The seqs of a path view above `after` (at most `through`); undefined when the view is every message
   * up to a bound: the tree, or any path of a log that never branched (one line).
   */
  private onPath(view: LogView): ((after: number, through: number) => number[]) | undefined {
    if (view.view === "tree" || !this.branched) return undefined;
    const leaf = view.leaf ?? this.leaf;
    return (after, through) =>
      leaf <= after
        ? []
        : this.select<{ seq: number }>(PATH_SEQS, leaf, after).flatMap((r) => (r.seq <= through ? [r.seq] : []));
  }

  /** The last seq a view that is every message up to a bound can hold. */
  private bound(view: LogView): number {
    return view.view === "tree" ? this.last : (view.leaf ?? this.leaf);
  }

  private linearPage(after: number, limit: number, through: number): Message[] {
    return this.select<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
      after,
      through,
      limit,
    ).map(toMessage);
  }

  /** The messages of these seqs, in seq order. */
  private rows(seqs: readonly number[]): Message[] {
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

  append(draft: MessageDraft): Promise<Message> {
    try {
      return Promise.resolve(this.write(draft));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private write(draft: MessageDraft): Message {
    const seq = this.last + 1;
    const parent = this.leaf;
    // Whatever built a system item, its body reaches the model defused of forged reminder tags.
    const safe = draft.role === "system" ? { ...draft, item: defuseItem(draft.item) } : draft;
    const { role, ...payload } = safe;
    const message = {
      ...safe,
      seq,
      id: crypto.randomUUID(),
      created_at: new Date().toISOString(),
      parent_seq: parent,
    } as Message;
    insertMessage(this.sql, {
      seq,
      id: message.id,
      role,
      created_at: message.created_at,
      payload: JSON.stringify(payload),
      parent,
    });
    // The leaf was stored only while it was not the last message; now it is again.
    if (parent !== this.last) deleteState(this.sql, LEAF_KEY);
    this.last = seq;
    this.leaf = seq;
    this.currentPath?.push(message);
    this.onPersisted(message);
    return message;
  }

  private select<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]): T[] {
    const cursor = this.sql.exec<T>(query, ...bindings);
    const rows = cursor.toArray();
    this.read += cursor.rowsRead;
    return rows;
  }
}
