// The bus and subscriber runtime one unit at a time (seed 000 FR-007…FR-021 and edge cases).
import { describe, expect, it, vi } from "vitest";
import { toModelMessages } from "../../../agent/context/model-messages";
import { summarizeNotifications } from "../../../agent/context/notification-summary";
import type { CompiledSubscriber } from "../../../agent/notifications/build-notification";
import { EventBus } from "../../../agent/notifications/bus";
import { BusNotifier } from "../../../agent/notifications/notifier";
import { findSubscriber } from "../../../agent/notifications/subscribers";
import {
  type BusEvent,
  type Message,
  type SubscriberConfigInput,
  SubscriberConfigSchema,
  type TemplateData,
} from "../../../protocol";

function subscriber(
  input: Partial<SubscriberConfigInput> & { id: string },
  render?: (d: TemplateData) => string,
): CompiledSubscriber {
  const config = SubscriberConfigSchema.parse({
    name: input.id,
    description: "test",
    source: "Test",
    events: ["tool.failure"],
    ...input,
  });
  return { config, file: `subscribers/${input.id}.json`, render: render ?? ((d) => `${d.total} events`) };
}

let n = 0;
function event(
  type: BusEvent["type"],
  payload: Record<string, unknown>,
  severity: BusEvent["severity"] = "error",
): BusEvent {
  return {
    id: String(n++),
    type,
    ts: new Date(1_700_000_000_000 + n).toISOString(),
    source: "Test",
    severity,
    payload,
  };
}

function busWith(subscribers: CompiledSubscriber[], clock = { t: 0 }, max?: number) {
  return new EventBus(subscribers, { now: () => clock.t, maxPendingEvents: max });
}

describe("EventBus", () => {
  it("routes by event type and minimum severity", () => {
    const bus = busWith([
      subscriber({
        id: "errors",
        events: ["tool.failure", "tool.timeout"],
        min_severity: "error",
        batch: { window_ms: 0, max_size: 50 },
      }),
    ]);
    bus.publish(event("tool.failure", { tool: "a" }));
    bus.publish(event("tool.timeout", { tool: "b" }));
    bus.publish(event("tool.failure", { tool: "c" }, "warning"));
    bus.publish(event("tool.success", { tool: "d" }, "error"));
    const [note] = bus.take("after_tool");
    expect(note?.item.data).toEqual([{ tool: "a" }, { tool: "b" }]);
  });

  it("dedupes equal keys within the window into a count, and starts over after it", () => {
    const clock = { t: 0 };
    const bus = busWith(
      [
        subscriber({
          id: "failures",
          dedupe: { key: ["tool", "error"], window_ms: 5000 },
          fields: ["tool", "error", "count"],
        }),
      ],
      clock,
    );
    for (const t of [0, 1000, 4000]) {
      clock.t = t;
      bus.publish(event("tool.failure", { tool: "vault_search", error: "boom" }));
    }
    clock.t = 12_000;
    bus.publish(event("tool.failure", { tool: "vault_search", error: "boom" }));
    const notes = bus.take("after_tool");
    expect(notes.map((x) => x.item.data)).toEqual([
      { tool: "vault_search", error: "boom", count: 3 },
      { tool: "vault_search", error: "boom", count: 1 },
    ]);
  });

  it("closes a batch when its window passes or it is full, and at the injection point", () => {
    const clock = { t: 0 };
    const bus = busWith([subscriber({ id: "batched", batch: { window_ms: 5000, max_size: 2 } })], clock);
    bus.publish(event("tool.failure", { i: 1 }));
    bus.publish(event("tool.failure", { i: 2 }));
    bus.publish(event("tool.failure", { i: 3 }));
    clock.t = 6000;
    bus.publish(event("tool.failure", { i: 4 }));
    expect(bus.take("after_tool").map((x) => x.item.data)).toEqual([[{ i: 1 }, { i: 2 }], { i: 3 }, { i: 4 }]);
  });

  it("delivers at its own injection point only, and everything at turn end", () => {
    const bus = busWith([
      subscriber({ id: "start", injection: "turn_start" }),
      subscriber({ id: "after", injection: "after_tool" }),
    ]);
    bus.publish(event("tool.failure", {}));
    expect(bus.take("after_tool").map((x) => x.item.subscriber)).toEqual(["after"]);
    bus.publish(event("tool.failure", {}));
    expect(
      bus
        .take("turn_end")
        .map((x) => x.item.subscriber)
        .sort(),
    ).toEqual(["after", "start", "start"]);
  });

  it("orders by priority, FIFO within a priority", () => {
    const bus = busWith([
      subscriber({ id: "low", priority: "low", events: ["tool.success"] }),
      subscriber({ id: "high", priority: "high", events: ["tool.failure"] }),
    ]);
    bus.publish(event("tool.success", { i: 1 }));
    bus.publish(event("tool.failure", { i: 2 }));
    bus.publish(event("tool.success", { i: 3 }));
    bus.publish(event("tool.failure", { i: 4 }));
    expect(bus.take("after_tool").map((x) => (x.item.data as { i: number }).i)).toEqual([2, 4, 1, 3]);
  });

  it("hands critical notifications back at once instead of holding them", () => {
    const bus = busWith([subscriber({ id: "crit", priority: "critical", batch: { window_ms: 60_000, max_size: 50 } })]);
    const urgent = bus.publish(event("tool.failure", { tool: "x" }));
    expect(urgent.map((x) => x.priority)).toEqual(["critical"]);
    expect(bus.take("turn_end")).toEqual([]);
  });

  it("drops the oldest low-priority events on overflow and says so once", () => {
    const bus = busWith(
      [
        subscriber({ id: "chatty", priority: "low", events: ["tool.success"] }),
        subscriber({ id: "important", priority: "high" }),
      ],
      { t: 0 },
      10,
    );
    for (let i = 0; i < 25; i++) bus.publish(event("tool.success", { i }, "info"));
    bus.publish(event("tool.failure", { tool: "kept" }));
    const notes = bus.take("turn_end");
    expect(notes.filter((x) => x.item.subscriber === "important")).toHaveLength(1);
    const kept = notes.filter((x) => x.item.subscriber === "chatty").map((x) => (x.item.data as { i: number }).i);
    expect(kept).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24]);
    const summary = notes.find((x) => x.item.subscriber === "bus_overflow");
    expect(summary?.item.message).toContain("16 low-priority events were dropped");
    expect(bus.droppedEvents).toBe(16);
    expect(bus.take("turn_end")).toEqual([]);
  });

  it("falls back to a generic headline and logs when a template throws", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const bus = busWith([
      subscriber({ id: "broken", name: "Broken" }, () => {
        throw new Error("bad template");
      }),
    ]);
    bus.publish(event("tool.failure", { tool: "x" }));
    const [note] = bus.take("after_tool");
    expect(note?.item.message).toBe("1 Broken event");
    expect(note?.item.data).toEqual({ tool: "x" });
    expect(log).toHaveBeenCalledWith(expect.stringContaining("subscribers/broken.json"), expect.any(Error));
    log.mockRestore();
  });

  it("renders a notification when it is first read, and once", () => {
    const render = vi.fn((d: TemplateData) => `${d.total} failures`);
    const bus = busWith([subscriber({ id: "lazy" }, render)]);
    bus.publish(event("tool.failure", { tool: "x" }));
    const [note] = bus.take("after_tool");
    expect(note?.subscriber).toBe("lazy");
    expect(render).not.toHaveBeenCalled();
    expect(note?.item.message).toBe("1 failures");
    expect(note?.item.body).toContain("1 failures");
    expect(render).toHaveBeenCalledTimes(1);
  });
});

describe("BusNotifier", () => {
  it("drops a notification the user turned off without rendering it, and delivers one they want", async () => {
    const summary = findSubscriber("turn_summary");
    if (!summary) throw new Error("turn_summary subscriber missing");
    const render = vi.spyOn(summary, "render");
    const appended: unknown[] = [];
    const notifier = (on: boolean) =>
      new BusNotifier({
        append: async (draft) => appended.push(draft),
        enabledFilter: async () => (id) => on || id !== "turn_summary",
      });
    const turnEnd = { type: "turn.end", severity: "info", source: "Turn Control" } as const;
    const off = notifier(false);
    off.emit({ ...turnEnd, payload: { termination_reason: "completed", steps: 1, tokens: 10 } });
    await off.flush("turn_end");
    expect(appended).toEqual([]);
    expect(render).not.toHaveBeenCalled();
    const on = notifier(true);
    on.emit({ ...turnEnd, payload: { termination_reason: "completed", steps: 1, tokens: 10 } });
    await on.flush("turn_end");
    expect(appended).toHaveLength(1);
    expect(render).toHaveBeenCalledTimes(1);
    render.mockRestore();
  });
});

describe("notification summary in the context", () => {
  const note = (seq: number, name: string, count: number): Message => ({
    seq,
    id: String(seq),
    created_at: "2026-01-01T00:00:00Z",
    role: "system",
    source: "Tool Executor",
    severity: "info",
    item: {
      kind: "notification",
      message: "m",
      body: `[Notification: ${name}] m`,
      format: "text",
      priority: "low",
      subscriber: name,
      data: { count },
    },
  });

  const log = (count: number): Message[] => {
    const out: Message[] = [{ seq: 1, id: "1", created_at: "2026-01-01T00:00:00Z", role: "user", content: "hi" }];
    for (let i = 0; i < count; i++) out.push(note(i + 2, i % 2 ? "Tool success" : "Tool failure", 1));
    return out;
  };

  it("counts the notifications a compaction folds away in one line, by kind", () => {
    expect(summarizeNotifications(log(12))).toBe(
      "[Notification summary] 12 earlier notifications, summarised to save context: 6 Tool failure events, 6 Tool success events.",
    );
    expect(summarizeNotifications([note(1, "Tool success", 3)])).toBe(
      "[Notification summary] 1 earlier notification, summarised to save context: 3 Tool success events.",
    );
    expect(summarizeNotifications(log(0))).toBeUndefined();
  });

  it("names the latest failures among them, so a summary cannot lose them (seed 000 SC-001)", () => {
    const failure = (seq: number, message: string): Message => {
      const base = note(seq, "Tool failures", 1);
      if (base.role !== "system" || base.item.kind !== "notification") throw new Error("not a notification");
      return { ...base, severity: "error", item: { ...base.item, message } };
    };
    const messages = [note(1, "Tool success", 1), ...[2, 3, 4, 5, 6, 7].map((i) => failure(i, `tool_${i} failed`))];
    expect(summarizeNotifications(messages)).toBe(
      "[Notification summary] 7 earlier notifications, summarised to save context: 1 Tool success event, 6 Tool failures events. Errors among them (the latest 5 of 6): tool_3 failed; tool_4 failed; tool_5 failed; tool_6 failed; tool_7 failed.",
    );
  });

  it("never folds notifications on a sliding window: the context only grows at its end", () => {
    const before = toModelMessages(log(40));
    const after = toModelMessages(log(41));
    expect(before.filter((m) => m.role === "system")).toHaveLength(40);
    expect(after.slice(0, before.length)).toEqual(before);
  });
});
