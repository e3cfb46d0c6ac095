// The conversation's notifier: the loop emits events into the bus and flushes it at injection points;
// due notifications become persisted `notification` system items (so the model reads them in its next
// request and the user sees them as System messages). The user's subscriber toggles are read at
// delivery, so switching one off or on applies at once, in a running turn too.
import type { BusEvent, MessageDraft } from "../../protocol";
import { type EventDraft, type InjectionPoint, stampEvent } from "../events";
import type { Notification } from "./build-notification";
import { EventBus } from "./bus";
import { findSubscriber, subscribers } from "./subscribers";

export interface Notifier {
  emit(event: EventDraft): void;
  flush(point: InjectionPoint | "all"): Promise<void>;
}

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

const toDraft = (n: Notification, triggers: readonly string[]): SystemDraft => ({
  role: "system",
  source: n.source,
  severity: n.severity,
  item: triggers.length ? { ...n.item, trigger_ids: [...triggers] } : n.item,
});

/** Core subscribers are always wanted: their notifications need no look at the user's toggles. */
const isCore = (n: Notification) => findSubscriber(n.subscriber)?.config.core === true;

export interface BusNotifierOptions {
  append(draft: SystemDraft): Promise<unknown>;
  /** Whether the user currently wants this subscriber's notifications (core ones always). */
  enabledFilter(): Promise<(subscriberId: string | undefined) => boolean>;
  /** Persisted triggers (emitTrigger) whose notification is now in the log. */
  delivered?(triggerIds: readonly string[]): Promise<void>;
  maxPendingEvents?: number;
}

export class BusNotifier implements Notifier {
  private readonly bus: EventBus;
  /** Deliveries run one after another, so urgent ones and flushes keep their order. */
  private delivering: Promise<void> = Promise.resolve();

  constructor(private readonly options: BusNotifierOptions) {
    this.bus = new EventBus(subscribers, { maxPendingEvents: options.maxPendingEvents });
  }

  /** Persisted triggers on the bus that no delivered notification has carried yet. */
  private readonly triggers = new Set<string>();

  emit(draft: EventDraft): void {
    this.publish(stampEvent(draft));
  }

  /**
   * An event the caller has already persisted (a notify): the notification that delivers it records
   * its id (`trigger_ids`), and `delivered` hears of it once that notification is in the log.
   */
  emitTrigger(event: BusEvent): void {
    this.triggers.add(event.id);
    this.publish(event);
  }

  private publish(event: BusEvent): void {
    const urgent = this.bus.publish(event);
    if (!urgent.length) return;
    // Critical and core (always wanted): appended right now, so they precede whatever the loop
    // persists next. A non-core critical one waits for the user's toggles like any other.
    const core = urgent.filter(isCore);
    for (const n of core) this.track(this.append(n));
    const rest = urgent.filter((n) => !core.includes(n));
    if (rest.length) this.track(this.enqueue(rest));
  }

  async flush(point: InjectionPoint | "all"): Promise<void> {
    await Promise.all(this.inflight);
    await this.enqueue(this.bus.take(point));
  }

  private inflight = new Set<Promise<unknown>>();
  private track(work: Promise<unknown>): void {
    const tracked = work
      .catch((error) => console.error("notification delivery failed", error))
      .finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
  }

  private enqueue(notifications: Notification[]): Promise<void> {
    const run = this.delivering.then(() => this.deliver(notifications));
    this.delivering = run.catch((error) => console.error("notification delivery failed", error));
    return run;
  }

  private async deliver(notifications: Notification[]): Promise<void> {
    if (!notifications.length) return;
    const wanted = !notifications.every(isCore) ? await this.options.enabledFilter() : () => true;
    for (const n of notifications) {
      if (!wanted(n.subscriber)) continue;
      await this.append(n);
    }
  }

  private async append(n: Notification): Promise<void> {
    const triggers = n.eventIds.filter((id) => this.triggers.has(id));
    await this.options.append(toDraft(n, triggers));
    if (!triggers.length) return;
    for (const id of triggers) this.triggers.delete(id);
    await this.options.delivered?.(triggers);
  }
}
