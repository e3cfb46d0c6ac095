// Events the loop raises (docs/protocol.md "Events on the bus"): what happened, for the notification
// pipeline to turn into system items.
import type { BusEvent } from "../protocol";

/** An event before the bus stamps it with id and time. */
export type EventDraft = Omit<BusEvent, "id" | "ts">;

export type InjectionPoint = "turn_start" | "after_tool" | "turn_end";

export function stampEvent(draft: EventDraft, now = new Date()): BusEvent {
  return { ...draft, id: crypto.randomUUID(), ts: now.toISOString() };
}
