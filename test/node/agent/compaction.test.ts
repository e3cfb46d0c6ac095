// Context compaction's pure parts (context/compaction.ts, context/window.ts, context/model-messages.ts) and the summary call
// against a scripted model: where the cut falls, what the model reads afterwards, the fallback.
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { compact, cutSummary, planCut } from "../../../agent/context/compaction";
import { fitText, toModelMessages } from "../../../agent/context/model-messages";
import { ContextMeter, contextBudget, estimateRequest, estimateTokens } from "../../../agent/context/window";
import type { ModelRetry } from "../../../agent/llm/retry";
import type { Message, SystemItem, ToolMessage } from "../../../protocol";

let seq = 0;
const base = () => ({ seq: ++seq, id: `m${seq}`, created_at: "2026-01-02T00:00:00.000Z" });
const user = (content: string): Message => ({ ...base(), role: "user", content });
const agent = (content: string, step = 1): Message => ({ ...base(), role: "agent", content, step, phase: "final" });
const tool = (step: number, over: Partial<ToolMessage> = {}): Message => ({
  ...base(),
  role: "tool",
  call_id: `c${seq}`,
  tool: "vault_read",
  args: { path: "plan.md" },
  status: "success",
  result: "Ship in May.",
  step,
  duration_ms: 5,
  ...over,
});
const notification = (name: string): Message => ({
  ...base(),
  role: "system",
  source: "Tool Executor",
  severity: "warning",
  item: { kind: "notification", message: "m", body: `[Notification: ${name}] m`, format: "text", priority: "normal" },
});
const compaction = (through: number, body = "SUMMARY"): Message => ({
  ...base(),
  role: "system",
  source: "Context",
  severity: "info",
  item: { kind: "compaction", body, through_seq: through, tokens_before: 900, tokens_after: 100, method: "summary" },
});

/** `turns` exchanges of a user message and an answer, each about `size` characters. */
function conversation(turns: number, size = 400): Message[] {
  const log: Message[] = [];
  for (let i = 0; i < turns; i++)
    log.push(user(`question ${i} ${"q".repeat(size)}`), agent(`answer ${i} ${"a".repeat(size)}`));
  return log;
}

const text = (m: ReturnType<typeof toModelMessages>[number]) =>
  typeof m.content === "string" ? m.content : JSON.stringify(m.content);

describe("the size of a request", () => {
  it("estimates a token per 3 UTF-8 bytes, so multi-byte text counts more", () => {
    expect(estimateTokens("abcdef")).toBe(2);
    expect(estimateTokens("日本語")).toBe(3); // 9 bytes
    expect(estimateRequest([{ role: "system", content: "abc" }])).toBe(1 + 4);
  });

  it("starts from the provider's count and adds an estimate of what was added, but not across a compaction", () => {
    const meter = new ContextMeter();
    expect(meter.predict(0, 1000)).toBe(1000); // nothing known yet: the estimate
    meter.observe(0, 1000, 1500); // the provider counted more than we estimated
    expect(meter.predict(0, 1200)).toBe(1500 + 200 * 1.5);
    expect(meter.predict(7, 600)).toBe(900); // after a compaction: the estimate, scaled up
    meter.observe(7, 600, 400); // counted less: never scaled down
    expect(meter.predict(7, 700)).toBe(500);
  });
});

describe("the context after a compaction", () => {
  it("starts with the summary and goes on with the messages after through_seq; the log keeps everything", () => {
    const log = conversation(3);
    const through = log[3]?.seq ?? 0;
    log.push(compaction(through, "SUMMARY OF TURNS 1-2"));
    log.push(user("next question"));
    const messages = toModelMessages(log);
    expect(messages[0]).toEqual({ role: "system", content: "SUMMARY OF TURNS 1-2" });
    expect(messages.slice(1).map(text).join()).toContain("question 2");
    expect(messages.map(text).join()).not.toContain("question 1");
    expect(messages.at(-1)?.role).toBe("user");
  });

  it("keeps what the conversation started from (its latest context item) before the summary, through every compaction", () => {
    const context = (body: string): Message => ({
      ...base(),
      role: "system",
      source: "Context",
      severity: "info",
      item: { kind: "context", body, key: body },
    });
    const log = [context("INSTRUCTIONS v1"), ...conversation(3), context("INSTRUCTIONS v2"), ...conversation(2)];
    log.push(compaction(log[6]?.seq ?? 0, "FIRST"));
    expect(toModelMessages(log).slice(0, 2)).toEqual([
      { role: "system", content: "INSTRUCTIONS v1" },
      { role: "system", content: "FIRST" },
    ]);
    log.push(compaction(log[9]?.seq ?? 0, "SECOND"));
    const next = toModelMessages(log);
    expect(next.slice(0, 2)).toEqual([
      { role: "system", content: "INSTRUCTIONS v2" },
      { role: "system", content: "SECOND" },
    ]);
    expect(next.map(text).join()).not.toContain("INSTRUCTIONS v1");
  });

  it("only grows at its end between compactions, and a later compaction replaces the earlier one", () => {
    const log = conversation(4);
    log.push(compaction(log[1]?.seq ?? 0, "FIRST"));
    const before = toModelMessages(log);
    log.push(user("more"), agent("sure"), notification("Tool failure"));
    const after = toModelMessages(log);
    expect(after.slice(0, before.length)).toEqual(before);

    log.push(compaction(log[5]?.seq ?? 0, "SECOND"));
    const next = toModelMessages(log);
    expect(next[0]).toEqual({ role: "system", content: "SECOND" });
    expect(next.map(text).join()).not.toContain("FIRST");
  });

  it("cuts a message too long for the window in the middle, with a marker, keeping its start and end", () => {
    const huge = `BEGIN ${"x".repeat(200_000)} END`;
    const fitted = fitText(huge, 1000);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(1000);
    expect(fitted.startsWith("BEGIN")).toBe(true);
    expect(fitted.endsWith("END")).toBe(true);
    expect(fitted).toMatch(
      /\[… [\d,]+ characters cut here: the message is too long for the model's context window …\]/,
    );
    expect(fitText("short", 1000)).toBe("short");
    const [, , result] = toModelMessages([user("read it"), tool(1, { result: huge })], { messageLimit: 1000 });
    expect(JSON.stringify(result)).toContain("characters cut here");
  });
});

describe("where a compaction cuts", () => {
  const budget = contextBudget(4000); // keeps up to 800 tokens verbatim

  it("keeps the newest whole turns that fit and summarises the rest", () => {
    const log = conversation(10); // ≈ 2 × 140 tokens a turn
    const through = planCut(log, budget);
    const kept = log.filter((m) => m.seq > (through ?? 0));
    expect(kept[0]?.role).toBe("user");
    expect(estimateRequest(toModelMessages(kept))).toBeLessThanOrEqual(budget.keep);
    expect(kept.length).toBeGreaterThanOrEqual(4);
    expect(kept.length).toBeLessThan(log.length);
  });

  it("cuts at a step inside a long turn, never between a tool call's step and its results", () => {
    const log = [user("do many things")];
    for (let step = 1; step <= 12; step++)
      log.push(agent(`step ${step} ${"t".repeat(300)}`, step), tool(step), tool(step));
    const through = planCut(log, budget) ?? 0;
    const first = log.find((m) => m.seq > through);
    expect(first?.role).toBe("agent");
    expect(log.some((m) => m.seq <= through && m.role === "tool" && m.step === (first as { step: number }).step)).toBe(
      false,
    );
  });

  it("only cuts what is newer than the last compaction, and nothing when nothing is", () => {
    const log = conversation(6);
    log.push(compaction(log.at(-1)?.seq ?? 0));
    expect(planCut(log, budget)).toBeUndefined();
    log.push(...conversation(8));
    expect(planCut(log, budget)).toBeGreaterThan(log[11]?.seq ?? 0);
  });
});

describe("the deterministic cut", () => {
  it("lists the user's requests, the tools and notes used and the notifications, within the summary budget", () => {
    const dropped = [
      user("plan the launch"),
      tool(1),
      tool(1),
      tool(1, { tool: "vault_write", args: { path: "launch.md" } }),
    ];
    const body = cutSummary(
      dropped,
      undefined,
      "[Notification summary] 2 earlier notifications",
      "the call failed",
      contextBudget(8000),
    );
    expect(body).toContain('"plan the launch"');
    expect(body).toContain("vault_read ×2");
    expect(body).toContain("Notes: plan.md, launch.md");
    expect(body).toContain("[Notification summary] 2 earlier notifications");
    expect(body).toContain("the call failed");
  });

  it("drops the oldest requests first when they do not fit", () => {
    const dropped = conversation(200, 250);
    const budget = contextBudget(8000);
    const body = cutSummary(dropped, "an earlier summary", undefined, "x", budget);
    expect(estimateTokens(body)).toBeLessThanOrEqual(budget.summary);
    expect(body).toContain("question 199");
    expect(body).not.toContain("question 0 ");
  });
});

/** A model that answers every call with `reply` (or throws it) and records what it was sent. */
function summarizer(reply: string | Error, finish: "stop" | "length" = "stop") {
  const calls: LanguageModelV3CallOptions[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "summarizer",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream(options) {
      calls.push(options);
      if (reply instanceof Error) throw reply;
      const parts: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: reply },
        { type: "text-end", id: "t" },
        {
          type: "finish",
          usage: {
            inputTokens: { total: 700, noCache: 200, cacheRead: 500, cacheWrite: undefined },
            outputTokens: { total: 40, text: 40, reasoning: undefined },
          },
          finishReason: { unified: finish, raw: finish },
        },
      ];
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  return { model, calls };
}

function request(model: LanguageModelV3, log: Message[]) {
  return {
    model,
    system: "SYSTEM PROMPT",
    tools: [
      { type: "function" as const, name: "vault_read", description: "d", inputSchema: { type: "object" as const } },
    ],
    budget: contextBudget(4000),
    log,
    tokensBefore: 3500,
    estimatedBefore: 3500,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
  };
}

describe("a compaction", () => {
  it("asks the model with the turn's own prefix and tools (none callable) and keeps its summary", async () => {
    const log = [...conversation(10), notification("Tool failure")];
    const { model, calls } = summarizer("- Goal: ship the launch plan.");
    const done = await compact(request(model, log));
    const item = done?.draft.item as Extract<SystemItem, { kind: "compaction" }>;
    expect(item.method).toBe("summary");
    expect(item.body).toContain("- Goal: ship the launch plan.");
    expect(item.body).toContain(`Messages up to #${item.through_seq}`);
    expect(item.tokens_after).toBeLessThan(item.tokens_before);
    expect(done?.usage).toEqual({ inputTokens: 700, outputTokens: 40, cachedInputTokens: 500 });

    const sent = calls[0];
    expect(sent?.toolChoice).toEqual({ type: "none" });
    expect(sent?.tools?.map((t) => t.name)).toEqual(["vault_read"]);
    expect(sent?.prompt[0]).toEqual({ role: "system", content: "SYSTEM PROMPT" });
    expect(text(sent?.prompt.at(-1) as never)).toContain("[Compaction request]");
    // The summarised messages as the turn's context showed them, and none of the kept ones.
    const kept = log.filter((m) => m.seq > item.through_seq);
    expect(JSON.stringify(sent?.prompt)).not.toContain((kept[0] as { content: string }).content);
  });

  it("retries a refused summary call and reports the retry, as a turn's own requests do", async () => {
    const { model } = summarizer("- Goal: ship.");
    let refused = 0;
    const flaky: LanguageModelV3 = {
      ...model,
      doStream(options) {
        if (refused++ === 0)
          throw new APICallError({
            message: "Server busy",
            url: "https://model.test/v1/chat/completions",
            requestBodyValues: {},
            statusCode: 503,
            isRetryable: true,
            responseHeaders: { "retry-after": "0" },
          });
        return model.doStream(options);
      },
    };
    const retries: ModelRetry[] = [];
    const done = await compact({ ...request(flaky, conversation(10)), onRetry: (r) => retries.push(r) });
    expect(done?.draft.item).toMatchObject({ kind: "compaction", method: "summary" });
    expect(retries).toMatchObject([{ status: 503, attempt: 1 }]);
  });

  it("falls back to the deterministic cut when the summary call fails or its answer is too long", async () => {
    const log = conversation(10);
    const failed = await compact(request(summarizer(new Error("model down")).model, log));
    const item = failed?.draft.item as Extract<SystemItem, { kind: "compaction" }>;
    expect(item.method).toBe("cut");
    expect(item.body).toContain("the summary call failed: model down");
    expect(item.body).toContain('"question 7'); // the newest of those dropped that fit

    const long = await compact(request(summarizer("word ".repeat(2000)).model, log));
    expect((long?.draft.item as { method?: string } | undefined)?.method).toBe("cut");
    const cut = await compact(request(summarizer("ok", "length").model, log));
    expect((cut?.draft.item as { body?: string } | undefined)?.body).toContain("the model's summary was too long");
  });

  it("writes nothing when the turn is stopped during the summary call", async () => {
    const stop = new AbortController();
    const model = summarizer(new Error("aborted")).model;
    stop.abort();
    expect(await compact({ ...request(model, conversation(10)), signal: stop.signal })).toBeUndefined();
  });
});
