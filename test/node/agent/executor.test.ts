import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runToolCalls } from "../../../agent/tools/executor";
import { defineTool } from "../../../agent/tools/tool";
import { crashTool, echoTool, fakeRun, hangTool, sleep, toolErrorTool } from "./fake-tool-run";

describe("runToolCalls outcomes", () => {
  it("runs a valid call and returns its result", async () => {
    const { ctx } = fakeRun([echoTool]);
    const [o] = await runToolCalls([{ callId: "c1", tool: "echo", args: { text: "hi" } }], ctx);
    expect(o).toMatchObject({ callId: "c1", tool: "echo", status: "success", result: { echoed: "hi" } });
    expect(o?.errorType).toBeUndefined();
  });

  it("refuses an unknown tool and lists the available ones", async () => {
    const { ctx } = fakeRun([echoTool]);
    const [o] = await runToolCalls([{ callId: "c1", tool: "nope", args: {} }], ctx);
    expect(o).toMatchObject({ status: "error", errorType: "unknown_tool" });
    expect(o?.error).toContain('"nope"');
    expect(o?.error).toContain("echo");
  });

  it("refuses invalid arguments with the path and the zod message", async () => {
    const { ctx } = fakeRun([echoTool]);
    const zodMessage = echoTool.args.safeParse({ text: 5 }).error?.issues[0]?.message;
    const [o] = await runToolCalls([{ callId: "c1", tool: "echo", args: { text: 5 } }], ctx);
    expect(o).toMatchObject({ status: "error", errorType: "invalid_args" });
    expect(zodMessage).toBeTruthy();
    expect(o?.error).toBe(`Invalid arguments for echo: text: ${zodMessage}`);
  });

  it("times out a call that never resolves, after the tool's own timeout", async () => {
    const { ctx } = fakeRun([hangTool]);
    const started = Date.now();
    const [o] = await runToolCalls([{ callId: "c1", tool: "hang", args: {} }], ctx);
    expect(o).toMatchObject({ status: "timeout", errorType: "timeout" });
    expect(o?.error).toContain("hang timed out");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("passes a ToolError's message through and wraps any other error", async () => {
    const { ctx } = fakeRun([toolErrorTool, crashTool]);
    const [expected, crash] = await runToolCalls(
      [
        { callId: "c1", tool: "missing_note", args: {} },
        { callId: "c2", tool: "crash", args: {} },
      ],
      ctx,
    );
    expect(expected).toMatchObject({ status: "error", errorType: "error", error: "no note at that path" });
    expect(crash).toMatchObject({ status: "error", errorType: "error", error: "crash failed: disk on fire" });
  });

  it("has parallel subagent calls share the tokens left instead of each being offered all of them", async () => {
    let left = 9_000;
    const spender = defineTool({
      name: "spender",
      description: "spends tokens like a subagent",
      args: z.object({ spend: z.number() }),
      spendsTurnTokens: true,
      async execute({ spend }, toolCtx) {
        const offered = toolCtx.remaining?.().tokens ?? 0;
        left -= Math.min(spend, offered);
        return offered;
      },
    });
    const { ctx } = fakeRun([spender, echoTool], { maxParallel: 3 });
    const base = { ...ctx.base, remaining: () => ({ tokens: left, seconds: 60, iterations: 5 }) };
    const calls = [
      { callId: "a", tool: "spender", args: { spend: 1_000 } },
      { callId: "b", tool: "echo", args: { text: "x" } },
      { callId: "c", tool: "spender", args: { spend: 0 } },
      { callId: "d", tool: "spender", args: { spend: 0 } },
    ];
    const out = await runToolCalls(calls, { ...ctx, base });
    // a and c start together (three slots, echo in the third): a third each of what is left when they
    // ask; d starts once a is done and splits with c what is left then.
    expect(out.map((o) => o.result)).toEqual([3_000, { echoed: "x" }, 2_666, 4_000]);
  });

  it("counts the calls an earlier phase of the step already ran against the cap", async () => {
    const { ctx } = fakeRun([echoTool], { maxCalls: 2 });
    const calls = ["a", "b"].map((text, i) => ({ callId: `c${i}`, tool: "echo", args: { text } }));
    const out = await runToolCalls(calls, { ...ctx, callsBefore: 1 });
    expect(out.map((o) => o.status)).toEqual(["success", "error"]);
    expect(out[1]?.error).toContain("at most 2 tool calls per step");
  });

  it("skips, with an error, the calls beyond the per-step cap and keeps the call order", async () => {
    const { ctx } = fakeRun([echoTool], { maxCalls: 2 });
    const calls = ["a", "b", "c", "d"].map((text, i) => ({ callId: `c${i}`, tool: "echo", args: { text } }));
    const out = await runToolCalls(calls, ctx);
    expect(out.map((o) => o.callId)).toEqual(["c0", "c1", "c2", "c3"]);
    expect(out.map((o) => o.status)).toEqual(["success", "success", "error", "error"]);
    expect(out.map((o) => Boolean(o.skipped))).toEqual([false, false, true, true]);
    expect(out[2]?.error).toContain("at most 2 tool calls per step");
  });

  it("cancels every call when the turn was already stopped", async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx, events } = fakeRun([echoTool], { signal: controller.signal });
    const out = await runToolCalls([{ callId: "c1", tool: "echo", args: { text: "x" } }], ctx);
    expect(out[0]).toMatchObject({ status: "error", skipped: true });
    expect(out[0]?.error).toMatch(/^Cancelled/);
    expect(events.map((e) => e.type)).toEqual(["tool.pending"]);
  });

  it("cancels a running call on Stop without waiting for the tool", async () => {
    const controller = new AbortController();
    const { ctx } = fakeRun([{ ...hangTool, timeoutMs: 10_000 }], { signal: controller.signal });
    const running = runToolCalls([{ callId: "c1", tool: "hang", args: {} }], ctx);
    await sleep(10);
    controller.abort();
    const [o] = await running;
    expect(o).toMatchObject({ status: "error", errorType: "error" });
    expect(o?.error).toMatch(/^Cancelled/);
  });

  it("routes request_input to the user and returns the answer", async () => {
    const rec = fakeRun([], { step: 4, answer: async () => ({ type: "answer", content: "blue" }) });
    const [o] = await runToolCalls([{ callId: "q1", tool: "request_input", args: { question: "Colour?" } }], rec.ctx);
    expect(rec.questions).toEqual([{ question: "Colour?", step: 4 }]);
    expect(o).toMatchObject({ status: "success", result: { answer: "blue" } });
    expect(o?.inputTimedOut).toBeUndefined();
  });

  it("reports an unanswered question as a timeout that ends the turn", async () => {
    const rec = fakeRun([], { answer: async () => ({ type: "timeout" }) });
    const [o] = await runToolCalls([{ callId: "q1", tool: "request_input", args: { question: "Colour?" } }], rec.ctx);
    expect(o).toMatchObject({ status: "timeout", errorType: "timeout", inputTimedOut: true });
  });

  it("does not count the wait for the user as the call's duration", async () => {
    const rec = fakeRun([], {
      answer: async () => {
        await sleep(40);
        return { type: "answer", content: "ok" };
      },
    });
    const [o] = await runToolCalls([{ callId: "q1", tool: "request_input", args: { question: "?" } }], rec.ctx);
    expect(o?.waitedMs).toBeGreaterThanOrEqual(30);
    expect(o?.durationMs).toBeLessThan(30);
  });
});
