// The quota's door (agent/llm/metered-model.ts): a refused call never reaches the provider and ends the
// turn's call as QuotaExceeded; an admitted call's use is recorded from its finish, before the finish is
// passed on; a call that ends without one counts its estimated input.
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { callModel } from "../../../agent/llm/call-model";
import { meteredModel, QuotaExceeded, type UsageMeter } from "../../../agent/llm/metered-model";

function provider(cut = false): LanguageModelV3 & { calls: number } {
  const model = {
    calls: 0,
    specificationVersion: "v3" as const,
    provider: "test",
    modelId: "m",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream() {
      model.calls++;
      const parts: LanguageModelV3StreamPart[] = [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "hi" },
        { type: "text-end", id: "t" },
      ];
      if (!cut)
        parts.push({
          type: "finish",
          usage: {
            inputTokens: { total: 700, noCache: 700, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 40, text: 40, reasoning: undefined },
          },
          finishReason: { unified: "stop", raw: "stop" },
        });
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
  return model;
}

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "x".repeat(400) }] }];
const call = (model: LanguageModelV3) =>
  callModel({ model, prompt, signal: new AbortController().signal, deadline: Date.now() + 10_000 });

describe("the metered model", () => {
  it("records what an admitted call used before its finish is passed on", async () => {
    const events: string[] = [];
    const meter: UsageMeter = {
      admit: async (estimate) => {
        events.push(`admit ${estimate()}`);
        return "ticket";
      },
      record: async (ticket, usage) => {
        await new Promise((r) => setTimeout(r, 10));
        events.push(`record ${ticket} ${usage.inputTokens}+${usage.outputTokens}`);
      },
      flush: async () => undefined,
    };
    const result = await call(meteredModel(provider(), meter));
    events.push("answered");
    expect(result.text).toBe("hi");
    expect(events).toEqual(["admit 100", "record ticket 700+40", "answered"]);
  });

  it("refuses before the provider is called", async () => {
    const model = provider();
    const meter: UsageMeter = {
      admit: () => Promise.reject(new QuotaExceeded("You have used today's quota")),
      record: async () => undefined,
      flush: async () => undefined,
    };
    await expect(call(meteredModel(model, meter))).rejects.toBeInstanceOf(QuotaExceeded);
    expect(model.calls).toBe(0);
  });

  it("counts a call that ended without its usage as its estimated input", async () => {
    const recorded: unknown[] = [];
    const meter: UsageMeter = {
      admit: async () => undefined,
      record: async (_ticket, usage) => {
        recorded.push(usage);
      },
      flush: async () => undefined,
    };
    await expect(call(meteredModel(provider(true), meter))).rejects.toThrow();
    expect(recorded).toEqual([{ inputTokens: 100, outputTokens: 0 }]);
  });
});
