// A zero-latency scripted LanguageModelV3 for benchmarks: whatever time a run takes is the loop's own.
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";

export type ScriptedReply = { text: string } | { toolCall: { name: string; args: unknown } };

/** What every scripted answer reports having used. */
export const SCRIPTED_USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** `reasoning`: each call first streams this many reasoning deltas of 8 characters (a thinking model). */
export function scriptedModel(reply: (callIndex: number) => ScriptedReply, { reasoning = 0 } = {}): LanguageModelV3 {
  let calls = 0;
  return {
    specificationVersion: "v3",
    provider: "bench",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream() {
      const next = reply(calls++);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (reasoning) {
        parts.push({ type: "reasoning-start", id: "r" });
        for (let i = 0; i < reasoning; i++) parts.push({ type: "reasoning-delta", id: "r", delta: "thought " });
        parts.push({ type: "reasoning-end", id: "r" });
      }
      if ("text" in next) {
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: next.text },
          { type: "text-end", id: "t" },
        );
      } else {
        parts.push({
          type: "tool-call",
          toolCallId: `c${calls}`,
          toolName: next.toolCall.name,
          input: JSON.stringify(next.toolCall.args),
        });
      }
      parts.push({
        type: "finish",
        usage: SCRIPTED_USAGE,
        finishReason: { unified: "text" in next ? "stop" : "tool-calls", raw: undefined },
      });
      return { stream: streamOf(parts) };
    },
  };
}

/** A provider stream that plays `parts` at once, then ends, or breaks with `error` (a dropped connection). */
export function streamOf(parts: LanguageModelV3StreamPart[], error?: Error): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (error) controller.error(error);
      else controller.close();
    },
  });
}
