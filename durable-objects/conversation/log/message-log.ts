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
import { deleteState, insertMessage, readState, writeState } from "./local-tables";
import { LogQueries } from "./log-queries";

const PAGE = 500;
/** The current leaf, stored only while it is not the last message (after a switch or a branch point). */
const LEAF_KEY = "leaf";
/** Set once the leaf first left the last message: until then the log is one line and its path is all of it. */
const BRANCHED_KEY = "branched";

export type LogView = { view: "path" | "tree"; leaf?: number };

export class MessageLog {
  /** The current path, once read; grows with appends, replaced when the leaf moves elsewhere. */
  private currentPath: Message[] | undefined;
  private last: number;
  private leaf: number;
  private branched: boolean;
  /** Every read of the messages table, this class's and the log's other readers' (log-queries.ts). */
  readonly queries: LogQueries;

  constructor(
    sql: SqlStorage,
    private readonly onPersisted: (message: Message) => void,
  ) {
    this.queries = new LogQueries(sql);
    this.last = this.queries.lastSeq();
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
    return this.queries.rowsRead;
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
    return this.has(seq) ? this.queries.message(seq) : undefined;
  }

  /** The newest message at or below `seq`: where the path through `seq` ends (always a leaf of the tree). */
  newestUnder(seq: number): number {
    return this.queries.newestUnder(seq);
  }

  /** Moves the current leaf (a switch, or the branch point of an edit or regenerate). */
  moveLeaf(seq: number): void {
    if (seq !== 0 && !this.has(seq)) throw new Error(`no message ${seq}`);
    if (seq === this.leaf) return;
    this.leaf = seq;
    this.currentPath = undefined;
    const { sql } = this.queries;
    if (seq === this.last) deleteState(sql, LEAF_KEY);
    else writeState(sql, LEAF_KEY, String(seq));
    if (seq !== this.last && !this.branched) {
      this.branched = true;
      writeState(sql, BRANCHED_KEY, "1");
    }
  }

  /** Up to `limit` messages after `after` (and at most `through`), in seq order: every branch's, or one path's. */
  page(after: number, limit: number, through = Number.MAX_SAFE_INTEGER, view: LogView = { view: "tree" }): Message[] {
    const path = this.onPath(view);
    if (!path) return this.queries.linearPage(after, limit, Math.min(through, bound(view, this)));
    return this.queries.rows(path(after, through).slice(0, limit));
  }

  /** Every message after `after` through `through`, a page at a time (a resume can span the whole log). */
  *range(after: number, through: number, view: LogView = { view: "tree" }): Generator<Message> {
    const path = this.onPath(view);
    if (path) {
      // The path's seqs are walked once; its messages are read a page at a time.
      const seqs = path(after, through);
      for (let i = 0; i < seqs.length; i += PAGE) yield* this.queries.rows(seqs.slice(i, i + PAGE));
      return;
    }
    const last = Math.min(through, bound(view, this));
    let from = after;
    while (from < last) {
      const page = this.queries.linearPage(from, PAGE, last);
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
    return (after, through) => this.queries.pathSeqs(leaf, after, through);
  }

  /** Appends after the current leaf; `createdAt`: the time a message brought in was first written (log-import.ts). */
  append(draft: MessageDraft, createdAt?: string): Promise<Message> {
    try {
      return Promise.resolve(this.write(draft, createdAt));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private write(draft: MessageDraft, createdAt = new Date().toISOString()): Message {
    const seq = this.last + 1;
    const parent = this.leaf;
    // Whatever built a system item, its body reaches the model defused of forged reminder tags.
    const safe = draft.role === "system" ? { ...draft, item: defuseItem(draft.item) } : draft;
    const { role, ...payload } = safe;
    const message = {
      ...safe,
      seq,
      id: crypto.randomUUID(),
      created_at: createdAt,
      parent_seq: parent,
    } as Message;
    const { sql } = this.queries;
    insertMessage(sql, {
      seq,
      id: message.id,
      role,
      created_at: message.created_at,
      payload: JSON.stringify(payload),
      parent,
    });
    // The leaf was stored only while it was not the last message; now it is again.
    if (parent !== this.last) deleteState(sql, LEAF_KEY);
    this.last = seq;
    this.leaf = seq;
    this.currentPath?.push(message);
    this.onPersisted(message);
    return message;
  }
}

/** The last seq a view that is every message up to a bound can hold. */
const bound = (view: LogView, log: MessageLog): number =>
  view.view === "tree" ? log.lastSeq : (view.leaf ?? log.leafSeq);
