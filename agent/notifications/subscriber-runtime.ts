// One subscriber's state inside a conversation's bus: dedupe (equal key fields within the window
// collapse into one event with a count) and batching (events within the window, up to max_size, go
// out together). Pure bookkeeping: the bus decides when batches are delivered.
import type { BusEvent, SubscriberConfig, TemplateEvent } from "../../protocol";

export interface Batch {
  events: TemplateEvent[];
  /** Events before dedupe. */
  total: number;
  /** The ids of every event in the batch, deduped ones included. */
  eventIds: string[];
  openedAt: number;
  /** Creation order across the bus, for FIFO within a priority. */
  order: number;
}

const SEVERITY_RANK = { debug: 0, info: 1, warning: 2, error: 3, critical: 4 } as const;

export function passesSeverity(config: SubscriberConfig, event: BusEvent): boolean {
  return SEVERITY_RANK[event.severity] >= SEVERITY_RANK[config.min_severity];
}

export class SubscriberRuntime {
  private open: (Batch & { keys: Map<string, { event: TemplateEvent; firstAt: number }> }) | undefined;
  private readonly windowMs: number;
  private readonly recent = new Map<string, { firstAt: number; count: number }>();
  private readonly maxSize: number;

  constructor(readonly config: SubscriberConfig) {
    // Critical notifications are not held back for a window; dedupe alone implies a batch of its window.
    const batch = config.priority === "critical" ? undefined : config.batch;
    this.windowMs = batch?.window_ms ?? config.dedupe?.window_ms ?? 0;
    this.maxSize = batch?.max_size ?? (config.dedupe ? 500 : 1);
  }

  matches(event: BusEvent): boolean {
    return this.config.events.includes(event.type) && passesSeverity(this.config, event);
  }

  get pendingEvents(): number {
    return this.open?.total ?? 0;
  }

  /**
   * Adds an event; returns the batches that closed: the open one when its window (if it has one) had
   * passed, and the one this event filled. A batch without a window waits for the injection point.
   */
  accept(event: BusEvent, now: number, nextOrder: () => number): Batch[] {
    const closed: Batch[] = [];
    if (this.open && this.windowMs > 0 && now - this.open.openedAt > this.windowMs) closed.push(this.closeOpen());
    this.open ??= { events: [], total: 0, eventIds: [], openedAt: now, order: nextOrder(), keys: new Map() };
    const batch = this.open;
    batch.total++;
    batch.eventIds.push(event.id);
    const key = this.dedupeKey(event);
    const count = key === undefined ? 1 : this.countRecent(key, now);
    const seen = key === undefined ? undefined : batch.keys.get(key);
    if (seen) {
      seen.event.count = count;
      seen.event.ts = event.ts;
    } else {
      const entry: TemplateEvent = {
        type: event.type,
        ts: event.ts,
        severity: event.severity,
        source: event.source,
        payload: event.payload,
        count,
      };
      batch.events.push(entry);
      if (key !== undefined) batch.keys.set(key, { event: entry, firstAt: now });
    }
    if (batch.events.length >= this.maxSize) closed.push(this.closeOpen());
    return closed;
  }

  /** Closes the open batch, if any (at an injection point). */
  close(): Batch | undefined {
    return this.open && this.closeOpen();
  }

  private closeOpen(): Batch {
    const { events, total, eventIds, openedAt, order } = this.open as Batch;
    this.open = undefined;
    return { events, total, eventIds, openedAt, order };
  }

  /**
   * Occurrences of a key within the dedupe window, this one included. Counted across batches: a
   * failure that was already delivered in an earlier step still counts ("failed 3 times"), while
   * each delivery still reaches the model at its injection point.
   */
  private countRecent(key: string, now: number): number {
    const windowMs = this.config.dedupe?.window_ms ?? 0;
    let entry = this.recent.get(key);
    if (!entry || now - entry.firstAt > windowMs) entry = { firstAt: now, count: 0 };
    entry.count++;
    this.recent.set(key, entry);
    if (this.recent.size > 256) {
      for (const [k, v] of this.recent) if (now - v.firstAt > windowMs) this.recent.delete(k);
    }
    return entry.count;
  }

  private dedupeKey(event: BusEvent): string | undefined {
    const fields = this.config.dedupe?.key;
    return fields ? JSON.stringify(fields.map((f) => event.payload[f] ?? null)) : undefined;
  }
}
