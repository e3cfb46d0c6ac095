// Events per second through a conversation's bus with the shipped subscribers, all the way to built
// notifications (dedupe, batching, templates, TOON/JSON encoding), and the latency of one publish.
// Bundled by bench/run.ts with esbuild and run in Node (V8, as workerd).

import { EventBus } from "../agent/notifications/bus";
import { subscribers } from "../agent/notifications/subscribers";
import type { BusEvent } from "../protocol";

const TOOLS = ["vault_search", "vault_read", "vault_write", "task_list", "task_create"];

function makeEvent(i: number): BusEvent {
  const tool = TOOLS[i % TOOLS.length] ?? "vault_read";
  const base = { id: `e${i}`, ts: new Date(1_800_000_000_000 + i).toISOString(), source: "Tool Executor" };
  switch (i % 10) {
    case 0:
    case 1:
      return {
        ...base,
        type: "tool.failure",
        severity: "error",
        payload: {
          tool,
          call_id: `c${i}`,
          error_type: "error",
          error: `No note at n${i % 7}.md`,
          args: { path: `n${i % 7}.md` },
        },
      };
    case 2:
      return {
        ...base,
        type: "budget.warning",
        severity: "warning",
        payload: { budget: "tokens", used: 41000, limit: 50000, percent: 82, message: "Token budget at 82%" },
      };
    case 3:
      return {
        ...base,
        type: "loop.detected",
        severity: "warning",
        payload: { kind: "repeat", tool, count: 2, message: "repeat" },
      };
    default:
      return {
        ...base,
        type: "tool.success",
        severity: "info",
        payload: { tool, call_id: `c${i}`, duration_ms: i % 300 },
      };
  }
}

/**
 * Publishes `count` events, taking notifications at after_tool every 10 events and turn_end every 100.
 * Lost events are those the bus dropped on overflow or still holds at the end.
 */
export function measureBus(count: number): {
  eventsPerSecond: number;
  latenciesMs: number[];
  notifications: number;
  lost: number;
} {
  let clock = 0;
  const bus = new EventBus(subscribers, { now: () => clock, maxPendingEvents: 1_000_000 });
  const events = Array.from({ length: count }, (_, i) => makeEvent(i));
  const latenciesMs: number[] = new Array(count);
  let notifications = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    clock += 1;
    const t0 = performance.now();
    notifications += bus.publish(events[i] as BusEvent).length;
    if (i % 10 === 9) notifications += bus.take(i % 100 === 99 ? "turn_end" : "after_tool").length;
    latenciesMs[i] = performance.now() - t0;
  }
  notifications += bus.take("turn_end").length;
  const seconds = (performance.now() - started) / 1000;
  return { eventsPerSecond: count / seconds, latenciesMs, notifications, lost: bus.droppedEvents + bus.pendingEvents };
}
