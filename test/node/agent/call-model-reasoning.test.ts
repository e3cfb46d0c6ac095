// A model call keeps the reasoning a provider streams (reasoning-* parts, from any provider), timed from
// its first part to the moment the model moved on (its text or a tool call), and its reasoning tokens.
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callModel } from "../../../agent/llm/call-model";

/** A model whose stream plays `parts`, each at the clock time given beside it. */
function timedModel(parts: [number, LanguageModelV3StreamPart][]): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "test",
    modelId: "timed",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream() {
      let i = 0;
      // No read-ahead (highWaterMark 0): a part's time is set only when the caller asks for that part.
      const stream = new ReadableStream<LanguageModelV3StreamPart>(
        {
          pull(controller) {
            const next = parts[i++];
            if (!next) return controller.close();
            vi.setSystemTime(next[0]);
            controller.enqueue(next[1]);
          },
        },
        { highWaterMark: 0 },
      );
      return { stream };
    },
  };
}

const finish = (reasoning?: number): LanguageModelV3StreamPart => ({
  type: "finish",
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 30, text: 30 - (reasoning ?? 0), reasoning },
  },
});

const call = (model: LanguageModelV3, onReasoningDelta?: (d: string) => void) =>
  callModel({
    model,
    prompt: [],
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    onReasoningDelta,
  });

afterEach(() => {
  vi.useRealTimers();
});

describe("reasoning in a model call", () => {
  it("is kept whole, streamed in order, and timed until the text starts", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const deltas: string[] = [];
    const result = await call(
      timedModel([
        [1_000, { type: "stream-start", warnings: [] }],
        [1_000, { type: "reasoning-start", id: "r" }],
        [1_000, { type: "reasoning-delta", id: "r", delta: "Let me " }],
        [5_000, { type: "reasoning-delta", id: "r", delta: "think." }],
        [13_000, { type: "text-delta", id: "t", delta: "Answer." }],
        [20_000, finish(12)],
      ]),
      (d) => deltas.push(d),
    );
    expect(deltas).toEqual(["Let me ", "think."]);
    expect(result.reasoning).toEqual({ text: "Let me think.", duration_ms: 12_000 });
    expect(result.text).toBe("Answer.");
    expect(result.usage.reasoningTokens).toBe(12);
  });

  it("ends the thinking time at a tool call or the reasoning's own end", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const result = await call(
      timedModel([
        [0, { type: "reasoning-delta", id: "r", delta: "Look it up." }],
        [3_000, { type: "reasoning-end", id: "r" }],
        [9_000, { type: "tool-call", toolCallId: "c1", toolName: "task_list", input: "{}" }],
        [9_500, finish()],
      ]),
    );
    expect(result.reasoning).toEqual({ text: "Look it up.", duration_ms: 3_000 });
    expect(result.toolCalls.map((c) => c.tool)).toEqual(["task_list"]);
  });

  it("is absent when the model sent none, and reasoning tokens only where reported", async () => {
    const result = await call(
      timedModel([
        [0, { type: "text-delta", id: "t", delta: "Hi." }],
        [0, finish(0)],
      ]),
    );
    expect(result).not.toHaveProperty("reasoning");
    expect(result.usage).not.toHaveProperty("reasoningTokens");
  });
});
