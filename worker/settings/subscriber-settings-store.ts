// Per-user subscriber toggles in D1. Core subscribers are always on, whatever is stored.
import { eq } from "drizzle-orm";
import type { CompiledSubscriber } from "../../durable-objects/notifications/build-notification";
import { subscribers } from "../../durable-objects/notifications/subscribers";
import type { SubscriberInfo } from "../../protocol";
import { database } from "../db/client";
import { subscriberSettings } from "../db/schema";

/** A user's choices: subscriber id → enabled. Missing means the default, enabled. */
export async function loadSubscriberToggles(d1: D1Database, userId: string): Promise<Map<string, boolean>> {
  const rows = await database(d1)
    .select({ id: subscriberSettings.subscriberId, enabled: subscriberSettings.enabled })
    .from(subscriberSettings)
    .where(eq(subscriberSettings.userId, userId));
  return new Map(rows.map((r) => [r.id, r.enabled]));
}

export function isEnabled(subscriber: CompiledSubscriber | undefined, toggles: Map<string, boolean>): boolean {
  if (!subscriber) return true;
  return subscriber.config.core || (toggles.get(subscriber.config.id) ?? true);
}

export function subscriberInfo(subscriber: CompiledSubscriber, toggles: Map<string, boolean>): SubscriberInfo {
  const c = subscriber.config;
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    source: c.source,
    events: c.events,
    core: c.core,
    enabled: isEnabled(subscriber, toggles),
    priority: c.priority,
    injection: c.injection,
    ...(c.batch ? { batch: c.batch } : {}),
    ...(c.dedupe ? { dedupe: c.dedupe } : {}),
  };
}

export async function listSubscribers(d1: D1Database, userId: string): Promise<SubscriberInfo[]> {
  const toggles = await loadSubscriberToggles(d1, userId);
  return subscribers.map((s) => subscriberInfo(s, toggles));
}

export async function saveToggle(
  d1: D1Database,
  userId: string,
  subscriberId: string,
  enabled: boolean,
): Promise<void> {
  const db = database(d1);
  await db
    .insert(subscriberSettings)
    .values({ userId, subscriberId, enabled })
    .onConflictDoUpdate({ target: [subscriberSettings.userId, subscriberSettings.subscriberId], set: { enabled } });
}
