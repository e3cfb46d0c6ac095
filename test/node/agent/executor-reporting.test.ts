import { describe, expect, it } from "vitest";
import { runToolCalls } from "../../../agent/tools/executor";
import { concurrencyTool, crashTool, echoTool, fakeRun, hangTool } from "./fake-tool-run";

describe("runToolCalls reporting and concurrency", () => {
  it("never runs more than maxParallel calls at once, and does use that many", async () => {
    for (const maxParallel of [1, 2, 3]) {
      const { tool, counter } = concurrencyTool();
      const { ctx } = fakeRun([tool], { maxParallel });
      const calls = Array.from({ length: 7 }, (_, n) => ({ callId: `c${n}`, tool: "slow", args: { n } }));
      const out = await runToolCalls(calls, ctx);
      expect(counter.max, `maxParallel ${maxParallel}`).toBe(maxParallel);
      expect(counter.started).toBe(7);
      expect(out.map((o) => o.result)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
  });

  it("persists every call exactly once, paired with its outcome", async () => {
    const { ctx, appended } = fakeRun([echoTool, crashTool], { step: 3, maxCalls: 3 });
    await runToolCalls(
      [
        { callId: "c1", tool: "echo", args: { text: "a" } },
        { callId: "c2", tool: "crash", args: {} },
        { callId: "c3", tool: "unknown", args: {} },
        { callId: "c4", tool: "echo", args: { text: "over the cap" } },
      ],
      ctx,
    );
    const byCall = new Map(appended.map((d) => [d.role === "tool" ? d.call_id : "", d]));
    expect(appended).toHaveLength(4);
    expect([...byCall.keys()].sort()).toEqual(["c1", "c2", "c3", "c4"]);
    expect(byCall.get("c1")).toMatchObject({
      role: "tool",
      tool: "echo",
      status: "success",
      result: { echoed: "a" },
      step: 3,
    });
    expect(byCall.get("c2")).toMatchObject({ status: "error", error: "crash failed: disk on fire", step: 3 });
    expect(byCall.get("c4")).toMatchObject({ status: "error" });
    expect(byCall.get("c1")).not.toHaveProperty("error");
  });

  it("sends tool_start, then persists, then tool_complete with events pending → success", async () => {
    const { ctx, trace, frames } = fakeRun([echoTool], { step: 2 });
    await runToolCalls([{ callId: "c1", tool: "echo", args: { text: "a" } }], ctx);
    expect(trace).toEqual([
      "send:tool_start:c1",
      "emit:tool.pending:c1",
      "append:c1",
      "send:tool_complete:c1",
      "emit:tool.success:c1",
    ]);
    expect(frames[0]).toEqual({ type: "tool_start", call_id: "c1", tool: "echo", args: { text: "a" }, step: 2 });
    expect(frames[1]).toMatchObject({ type: "tool_complete", call_id: "c1", result: { echoed: "a" }, step: 2 });
  });

  it("sends tool_error with the error type and emits tool.failure for a failed call", async () => {
    const { ctx, trace, frames, events } = fakeRun([crashTool]);
    await runToolCalls([{ callId: "c1", tool: "crash", args: {} }], ctx);
    expect(trace).toEqual([
      "send:tool_start:c1",
      "emit:tool.pending:c1",
      "append:c1",
      "send:tool_error:c1",
      "emit:tool.failure:c1",
    ]);
    expect(frames[1]).toMatchObject({ type: "tool_error", error_type: "error", error: "crash failed: disk on fire" });
    expect(events[1]).toMatchObject({ severity: "error", payload: { tool: "crash", error_type: "error" } });
  });

  it("emits tool.timeout, not tool.failure, for a call that timed out", async () => {
    const { ctx, events, frames } = fakeRun([hangTool]);
    await runToolCalls([{ callId: "c1", tool: "hang", args: {} }], ctx);
    expect(events.map((e) => e.type)).toEqual(["tool.pending", "tool.timeout"]);
    expect(frames.map((f) => f.type)).toEqual(["tool_start", "tool_error"]);
    expect(frames[1]).toMatchObject({ error_type: "timeout" });
  });

  it("reports each call of a parallel batch with one start and one end", async () => {
    const { tool } = concurrencyTool(5);
    const { ctx, frames, events } = fakeRun([tool], { maxParallel: 3 });
    const calls = Array.from({ length: 5 }, (_, n) => ({ callId: `c${n}`, tool: "slow", args: { n } }));
    await runToolCalls(calls, ctx);
    for (const { callId } of calls) {
      const mine = frames.filter((f) => "call_id" in f && f.call_id === callId).map((f) => f.type);
      expect(mine).toEqual(["tool_start", "tool_complete"]);
      const evs = events.filter((e) => e.payload.call_id === callId).map((e) => e.type);
      expect(evs).toEqual(["tool.pending", "tool.success"]);
    }
  });
});
