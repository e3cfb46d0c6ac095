// The subscribers compiled from subscribers/ at build time. Files that failed validation are not in
// the list; they are logged once when the Worker starts, and the others load as usual (seed 000 US6).

import type { SubscriberInfo } from "../../protocol";
import { INVALID_SUBSCRIBERS, SUBSCRIBERS } from "../../subscribers/subscribers.generated";
import type { CompiledSubscriber } from "./build-notification";

for (const bad of INVALID_SUBSCRIBERS) console.error(`subscriber skipped: ${bad.file}: ${bad.reason}`);

export const subscribers: readonly CompiledSubscriber[] = SUBSCRIBERS;

export function findSubscriber(id: string): CompiledSubscriber | undefined {
  return subscribers.find((s) => s.config.id === id);
}

/** Core subscribers are always on, whatever the user stored; the others follow the user's toggle, else the file's default. */
export function isEnabled(subscriber: CompiledSubscriber | undefined, toggles: ReadonlyMap<string, boolean>): boolean {
  if (!subscriber) return true;
  return subscriber.config.core || (toggles.get(subscriber.config.id) ?? subscriber.config.enabled_by_default);
}

export function subscriberInfo(subscriber: CompiledSubscriber, toggles: ReadonlyMap<string, boolean>): SubscriberInfo {
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
