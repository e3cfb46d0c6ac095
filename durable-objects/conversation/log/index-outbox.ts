// The conversation's entry in the D1 index (title, updated_at, preview, search text) follows the log
// through an outbox: the log itself plus a watermark, the last seq the index has. A flush sends what
// lies past the watermark as one D1 batch (a transaction) and moves the watermark once it landed, so
// a crash before or after a flush loses nothing and repeats nothing (the statements are idempotent).
// Flushes stay off the hot path: one as a turn's model starts answering (turnAnswering), one when
// it ends, and one soon after anything written while no turn runs. A failed flush is retried: at the
// next turn, the next wake, or an alarm with backoff.
import { type IndexUpdate, indexStatements, titleFrom } from "../../../d1/conversations";
import { purgeLegacyMessages } from "../../../d1/legacy-messages";
import { afterFinalFrames } from "../sockets/final-frames";
import { alarmBy } from "../triggers/alarm";
import { PENDING_INPUT_KEY } from "../turn/waits/pending-input";
import { LEGACY_PURGE_PENDING } from "./legacy-import";
import { deleteState, readState, writeState } from "./local-tables";
import type { IndexRow } from "./log-queries";
import type { MessageLog } from "./message-log";

const WATERMARK = "index_watermark";
const BATCH_MESSAGES = 200;
const RETRY_MS = [2_000, 10_000, 60_000, 300_000];
/** After the model starts answering; well within the 1.5 s after a turn's start when the client's list asks again. */
const INPUT_FLUSH_DELAY_MS = 250;

export interface OutboxOwner {
  conversationId: string;
  userId: string;
}

export class IndexOutbox {
  private flushing: Promise<void> | undefined;
  private failures = 0;
  private closed = false;
  private held = false;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly d1: D1Database,
    private readonly owner: OutboxOwner,
    /** The log (message-log.ts: its last seq is kept in memory), made after the outbox. */
    private readonly log: () => Pick<MessageLog, "lastSeq" | "queries">,
    private readonly keepAlive: (work: Promise<unknown>) => void,
  ) {}

  get pending(): boolean {
    return Boolean(readState(this.storage.sql, LEGACY_PURGE_PENDING)) || this.log().lastSeq > watermarkOf(this.storage);
  }

  /** Flushes in the background; joins a flush already under way (it picks up what was added since). */
  soon(): void {
    if (!this.closed) this.keepAlive(this.flush());
  }

  /** The log grew: flushed soon, unless a turn holds the outbox (it flushes at its start and end). */
  appended(): void {
    if (!this.held) this.soon();
  }

  /** A turn begins: its messages wait for the turn's own flushes, off the hot path. */
  hold(): void {
    this.held = true;
  }

  /**
   * The turn ended: what it wrote goes to the index once its final frames have left (afterFinalFrames),
   * so the D1 batch never holds them back (local D1 even shares the object's thread).
   */
  release(): void {
    this.held = false;
    if (!this.closed) this.keepAlive(afterFinalFrames(this.storage, () => this.soon()));
  }

  /**
   * The turn's model has started answering: its input goes to the index. The flush that names the
   * conversation (it carries the first user message) goes now, so the title shows as the first turn
   * starts; any other (preview, order, search) a moment later, out of the way of the first text and of
   * an early Stop.
   */
  turnAnswering(): void {
    if (this.closed) return;
    const first = this.log().queries.firstUserMessage();
    const names = first !== undefined && first.seq > watermarkOf(this.storage);
    if (names) this.soon();
    else this.keepAlive(scheduler.wait(INPUT_FLUSH_DELAY_MS).then(() => this.soon()));
  }

  flush(): Promise<void> {
    this.flushing ??= this.drain().then((drained) => {
      this.flushing = undefined;
      // A message written after the last check but before this flush let go would wait for the next
      // turn or wake; send it now (a failed drain waits for its retry instead).
      if (drained && !this.closed && this.pending) this.soon();
    });
    return this.flushing;
  }

  /** The conversation is being deleted: no flush may start after this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
  }

  /** Flushes until nothing is left; false when a batch failed (a retry is then scheduled). */
  private async drain(): Promise<boolean> {
    try {
      while (!this.closed && this.pending) await this.flushOnce();
      this.failures = 0;
      return true;
    } catch (error) {
      this.failures++;
      console.warn("index outbox: flush failed, will retry", this.owner.conversationId, error);
      await this.retryLater().catch(() => undefined);
      return false;
    }
  }

  private async flushOnce(): Promise<void> {
    const from = watermarkOf(this.storage);
    const { queries } = this.log();
    const rows = queries.indexRows(from, BATCH_MESSAGES);
    const purge = Boolean(readState(this.storage.sql, LEGACY_PURGE_PENDING));
    const statements = rows.length
      ? indexStatements(this.d1, indexUpdate(this.owner, rows, from, queries.firstUserMessage()))
      : [];
    if (purge) statements.push(purgeLegacyMessages(this.d1, this.owner.conversationId));
    await this.d1.batch(statements);
    const through = rows.at(-1)?.seq;
    if (through !== undefined) writeState(this.storage.sql, WATERMARK, String(through));
    if (purge) deleteState(this.storage.sql, LEGACY_PURGE_PENDING);
  }

  /**
   * An alarm with backoff, so an evicted object still retries. A pending request_input question owns
   * the alarm (its deadline); the object then retries when that alarm fires or at its next turn.
   */
  private async retryLater(): Promise<void> {
    if (this.closed || (await this.storage.get(PENDING_INPUT_KEY))) return;
    await alarmBy(this.storage, Date.now() + (RETRY_MS[Math.min(this.failures, RETRY_MS.length) - 1] ?? 300_000));
  }
}

/** The last seq the index has. */
const watermarkOf = (storage: DurableObjectStorage) => Number(readState(storage.sql, WATERMARK) ?? 0);

/** What a flush sends the index for `rows` (the log above `from`); `first`: the first user message. */
function indexUpdate(
  owner: OutboxOwner,
  rows: IndexRow[],
  from: number,
  first: { seq: number; payload: string } | undefined,
): IndexUpdate {
  const entries = rows.flatMap((r): IndexUpdate["entries"] => {
    const role = r.role;
    if (role !== "user" && role !== "agent") return [];
    const payload = JSON.parse(r.payload) as { content?: string; phase?: string };
    const text = payload.content?.trim();
    // Search ranks the user's words and answers above a step's narration (d1/conversation-search.ts):
    // only a turn's final answer has the phase "final".
    const kind = role === "user" ? "user" : payload.phase === "final" ? "answer" : "step";
    return text ? [{ seq: r.seq, role, kind, text }] : [];
  });
  const through = rows.at(-1)?.seq ?? from;
  // The conversation is named after its first user message, in the flush that carries it.
  const title =
    first && first.seq > from && first.seq <= through ? titleFrom(JSON.parse(first.payload).content ?? "") : "";
  return {
    ...owner,
    entries,
    updatedAt: rows.at(-1)?.created_at ?? new Date().toISOString(),
    ...(entries.length ? { preview: entries.at(-1)?.text } : {}),
    ...(title ? { title } : {}),
  };
}
