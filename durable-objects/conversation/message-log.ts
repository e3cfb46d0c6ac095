// The conversation's message log: every message gets the next seq, is written to D1, and only then
// is handed to `onPersisted` (the broadcast). Appends run one at a time, so seq has no gaps and the
// broadcast order is the seq order. The whole log is cached in memory once loaded; only this object
// writes it.

import { rowToMessage } from "../../d1/conversations";
import type { Message, MessageDraft } from "../../protocol";
import { defuseItem } from "../system-items/forgery";

export class MessageLog {
  private cache: Message[] | undefined;
  private loading: Promise<Message[]> | undefined;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: D1Database,
    readonly conversationId: string,
    private readonly onPersisted: (message: Message) => void,
  ) {}

  load(): Promise<Message[]> {
    if (this.cache) return Promise.resolve(this.cache);
    this.loading ??= this.db
      .prepare(
        "SELECT seq, id, role, created_at AS createdAt, payload FROM messages WHERE conversation_id = ? ORDER BY seq",
      )
      .bind(this.conversationId)
      .all<{ seq: number; id: string; role: string; createdAt: string; payload: string }>()
      .then(({ results }) => {
        this.cache = results.map(rowToMessage);
        return this.cache;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  /** The loaded log; call `load()` first. */
  get messages(): readonly Message[] {
    if (!this.cache) throw new Error("message log read before load()");
    return this.cache;
  }

  get lastSeq(): number {
    return this.cache?.at(-1)?.seq ?? 0;
  }

  after(seq: number): Message[] {
    return this.messages.filter((m) => m.seq > seq);
  }

  append(draft: MessageDraft): Promise<Message> {
    const write = this.tail.then(() => this.write(draft));
    // A failed write must not wedge the queue; the caller still sees the error.
    this.tail = write.catch(() => undefined);
    return write;
  }

  private async write(draft: MessageDraft): Promise<Message> {
    const log = await this.load();
    const seq = (log.at(-1)?.seq ?? 0) + 1;
    const createdAt = new Date().toISOString();
    // Whatever built a system item, its body reaches the model defused of forged reminder tags.
    const safe = draft.role === "system" ? { ...draft, item: defuseItem(draft.item) } : draft;
    const { role, ...payload } = safe;
    const message = { ...safe, seq, id: crypto.randomUUID(), created_at: createdAt } as Message;
    await this.db.batch([
      this.db
        .prepare("INSERT INTO messages (conversation_id, seq, id, role, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(this.conversationId, seq, message.id, role, createdAt, JSON.stringify(payload)),
      this.db.prepare("UPDATE conversations SET updated_at = ? WHERE id = ?").bind(createdAt, this.conversationId),
    ]);
    log.push(message);
    this.onPersisted(message);
    return message;
  }
}
