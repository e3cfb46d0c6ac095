// The conversation's message log, in the object's own SQLite: every message gets the next seq and is
// written locally, then handed to `onPersisted` (the broadcast, which the runtime's output gate holds
// until the write is durable). Writes are synchronous, so seq has no gaps and broadcasts leave in seq
// order. Only what a reader needs is read: a wake reads max(seq), a page reads its page, and the whole
// log is loaded only when a turn builds its context (then kept in step with appends).

import { defuseItem } from "../../agent/system-items/forgery";
import type { Message, MessageDraft } from "../../protocol";
import { insertMessage, type MessageRow } from "./local-tables";

const COLUMNS = "seq, id, role, created_at, payload";
const PAGE = 500;

// Rows are only ever written by `append` from validated drafts, so they are not parsed again here.
const toMessage = (row: MessageRow): Message =>
  ({ ...JSON.parse(row.payload), seq: row.seq, id: row.id, role: row.role, created_at: row.created_at }) as Message;

export class MessageLog {
  private loaded: Message[] | undefined;
  private last: number;
  private read = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly onPersisted: (message: Message) => void,
  ) {
    this.last = this.select<{ seq: number }>("SELECT coalesce(max(seq), 0) AS seq FROM messages")[0]?.seq ?? 0;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** Rows this instance has read from SQLite so far: what a wake costs (tests and benchmarks read it). */
  get rowsRead(): number {
    return this.read;
  }

  /** The whole log, for building a turn's context. */
  all(): readonly Message[] {
    this.loaded ??= this.select<MessageRow>(`SELECT ${COLUMNS} FROM messages ORDER BY seq`).map(toMessage);
    return this.loaded;
  }

  /** Up to `limit` messages after `after` (and at most `through`), in seq order. */
  page(after: number, limit: number, through = Number.MAX_SAFE_INTEGER): Message[] {
    return this.select<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
      after,
      through,
      limit,
    ).map(toMessage);
  }

  /** Every message after `after` through `through`, a page at a time (a resume can span the whole log). */
  *range(after: number, through: number): Generator<Message> {
    let from = after;
    while (from < through) {
      const page = this.page(from, PAGE, through);
      yield* page;
      const end = page.at(-1);
      if (!end || page.length < PAGE) return;
      from = end.seq;
    }
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
    // Whatever built a system item, its body reaches the model defused of forged reminder tags.
    const safe = draft.role === "system" ? { ...draft, item: defuseItem(draft.item) } : draft;
    const { role, ...payload } = safe;
    const message = { ...safe, seq, id: crypto.randomUUID(), created_at: new Date().toISOString() } as Message;
    insertMessage(this.sql, {
      seq,
      id: message.id,
      role,
      created_at: message.created_at,
      payload: JSON.stringify(payload),
    });
    this.last = seq;
    this.loaded?.push(message);
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
