// A conversation's event bus (seed 000, docs/architecture.md "Notifications"): events go to every subscriber
// that listens for their type and severity; closed batches become notifications in an outbox that is
// delivered at the injection points, critical ones at once, by priority and FIFO within a priority.
// The outbox is bounded: on overflow the oldest low-priority notifications are dropped, and one
// summary notification says how many events were lost.
import type { BusEvent, NotificationPriority } from "../../protocol";
import type { InjectionPoint } from "../events";
import { buildNotification, type CompiledSubscriber, type Notification } from "./build-notification";
import { SubscriberRuntime } from "./subscriber-runtime";

export const PRIORITY_RANK: Record<NotificationPriority, number> = { critical: 0, high: 1, normal: 2, low: 3 };
export const DEFAULT_MAX_PENDING_EVENTS = 1000;

interface Pending {
  notification: Notification;
  injection: InjectionPoint;
  events: number;
}

export interface BusOptions {
  maxPendingEvents?: number;
  now?: () => number;
}

export class EventBus {
  private readonly runtimes: { subscriber: CompiledSubscriber; runtime: SubscriberRuntime }[];
  private outbox: Pending[] = [];
  private order = 0;
  private dropped = new Map<string, number>();
  private droppedTotal = 0;
  private readonly maxPending: number;
  private readonly now: () => number;

  constructor(subscribers: readonly CompiledSubscriber[], options: BusOptions = {}) {
    this.runtimes = subscribers.map((subscriber) => ({
      subscriber,
      runtime: new SubscriberRuntime(subscriber.config),
    }));
    this.maxPending = options.maxPendingEvents ?? DEFAULT_MAX_PENDING_EVENTS;
    this.now = options.now ?? Date.now;
  }

  /** Events dropped on overflow since the bus was made (each also reported in a summary notification). */
  get droppedEvents(): number {
    return this.droppedTotal;
  }

  /** Events waiting in open batches and the outbox. */
  get pendingEvents(): number {
    return (
      this.outbox.reduce((n, p) => n + p.events, 0) + this.runtimes.reduce((n, r) => n + r.runtime.pendingEvents, 0)
    );
  }

  /** Routes one event; returns notifications that must be delivered at once (critical). */
  publish(event: BusEvent): Notification[] {
    const now = this.now();
    const urgent: Notification[] = [];
    for (const { subscriber, runtime } of this.runtimes) {
      if (!runtime.matches(event)) continue;
      for (const batch of runtime.accept(event, now, () => this.order++)) {
        const notification = buildNotification(subscriber, batch);
        if (notification.priority === "critical") urgent.push(notification);
        else this.outbox.push({ notification, injection: subscriber.config.injection, events: batch.total });
      }
    }
    this.enforceBound();
    return urgent;
  }

  /**
   * The notifications due at this injection point, in delivery order: batches of subscribers that
   * inject here are closed first. `turn_end` (and `all`, used when no turn runs) takes everything.
   */
  take(point: InjectionPoint | "all"): Notification[] {
    const everything = point === "all" || point === "turn_end";
    for (const { subscriber, runtime } of this.runtimes) {
      if (!everything && subscriber.config.injection !== point) continue;
      const batch = runtime.close();
      if (batch)
        this.outbox.push({
          notification: buildNotification(subscriber, batch),
          injection: subscriber.config.injection,
          events: batch.total,
        });
    }
    const due = this.outbox.filter((p) => everything || p.injection === point);
    this.outbox = this.outbox.filter((p) => !due.includes(p));
    const notifications = due.map((p) => p.notification);
    const summary = this.overflowSummary();
    if (summary) notifications.push(summary);
    return notifications.sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.order - b.order);
  }

  /** Drops the oldest low-priority (then normal-priority) notifications while over the bound. */
  private enforceBound(): void {
    let excess = this.pendingEvents - this.maxPending;
    for (const priority of ["low", "normal"] as const) {
      while (excess > 0) {
        const index = this.outbox.findIndex((p) => p.notification.priority === priority);
        if (index < 0) break;
        const [gone] = this.outbox.splice(index, 1);
        if (!gone) break;
        const name = gone.notification.subscriber;
        this.dropped.set(name, (this.dropped.get(name) ?? 0) + gone.events);
        this.droppedTotal += gone.events;
        excess -= gone.events;
      }
    }
  }

  private overflowSummary(): Notification | undefined {
    if (!this.dropped.size) return undefined;
    const parts = [...this.dropped].map(([name, n]) => `${n} ${name}`);
    const total = [...this.dropped.values()].reduce((a, b) => a + b, 0);
    this.dropped = new Map();
    const message = `${total} low-priority events were dropped because too many arrived at once (${parts.join(", ")}).`;
    return {
      source: "Event Bus",
      severity: "warning",
      priority: "normal",
      order: this.order++,
      eventIds: [],
      subscriber: "bus_overflow",
      item: {
        kind: "notification",
        message,
        body: `[Notification: Event bus] ${message}`,
        format: "text",
        subscriber: "bus_overflow",
        priority: "normal",
        data: { dropped: total },
      },
    };
  }
}
