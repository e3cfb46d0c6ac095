// The offline demo model: a deterministic LanguageModelV3 that streams a scripted answer, so
// `npm start` without an API key shows the whole product through the same code path as a real model.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { demoTitle, firstMessageOfTitlePrompt, isTitlePrompt } from "../conversation-title";
import { type DemoReply, planDemoReply } from "./script";

/**
 * A few words per delta, as a real model's tokens come in bursts: about 80 words a second, in 4 times
 * fewer frames than a word each (every frame costs each open tab a render; a long story is ~900 frames
 * otherwise).
 */
export const WORDS_PER_CHUNK = 4;
const CHUNK_DELAY_MS = 48;
/** Slower than the text, so the "Thinking…" block is there to see. */
const REASONING_DELAY_MS = 120;

/** `text` in pieces of WORDS_PER_CHUNK words, each with the space after it. */
export function demoChunks(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) chunks.push(words.slice(i, i + WORDS_PER_CHUNK).join(""));
  return chunks;
}

export function createDemoModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "demo",
    modelId: "demo",
    supportedUrls: {},
    async doGenerate() {
      throw new Error("the demo model only streams");
    },
    async doStream(options: LanguageModelV3CallOptions) {
      // A conversation's title request (agent/conversation-title.ts) gets a title made from its first message.
      const reply: DemoReply = isTitlePrompt(options.prompt)
        ? { text: demoTitle(firstMessageOfTitlePrompt(options.prompt)), toolCalls: [] }
        : planDemoReply(
            options.prompt,
            (options.tools ?? []).map((t) => t.name),
          );
      const signal = options.abortSignal;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          if (reply.reasoning) {
            controller.enqueue({ type: "reasoning-start", id: "r" });
            for (const chunk of demoChunks(reply.reasoning)) {
              if (signal?.aborted) return controller.error(signal.reason);
              await new Promise((r) => setTimeout(r, REASONING_DELAY_MS));
              controller.enqueue({ type: "reasoning-delta", id: "r", delta: chunk });
            }
            controller.enqueue({ type: "reasoning-end", id: "r" });
          }
          if (reply.text) {
            controller.enqueue({ type: "text-start", id: "t" });
            for (const chunk of demoChunks(reply.text)) {
              if (signal?.aborted) return controller.error(signal.reason);
              await new Promise((r) => setTimeout(r, CHUNK_DELAY_MS));
              controller.enqueue({ type: "text-delta", id: "t", delta: chunk });
            }
            controller.enqueue({ type: "text-end", id: "t" });
          }
          for (const call of reply.toolCalls) {
            controller.enqueue({
              type: "tool-call",
              toolCallId: call.id,
              toolName: call.name,
              input: JSON.stringify(call.args),
            });
          }
          const inputTokens = Math.ceil(JSON.stringify(options.prompt).length / 4);
          const reasoningTokens = Math.ceil((reply.reasoning?.length ?? 0) / 4);
          const outputTokens =
            Math.ceil((reply.text.length + JSON.stringify(reply.toolCalls).length) / 4) + reasoningTokens;
          controller.enqueue({
            type: "finish",
            // The raw reasons OpenAI's Chat Completions would send (call-model.ts reads a missing one as a cut-off).
            finishReason: reply.toolCalls.length
              ? { unified: "tool-calls", raw: "tool_calls" }
              : { unified: "stop", raw: "stop" },
            usage: {
              inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
              outputTokens: {
                total: outputTokens,
                text: outputTokens - reasoningTokens,
                reasoning: reasoningTokens || undefined,
              },
            },
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}
