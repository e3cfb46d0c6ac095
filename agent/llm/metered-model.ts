// The operator's quota at the model's door (docs/protocol.md "Quotas and usage"): every call to the
// operator's model (a turn's steps, its wrap-up, compaction summaries, titles, subagents: whatever calls
// `languageModel`) is admitted by the meter first, with an estimate of its input, and what it used is
// recorded when its stream ends. A refused call throws QuotaExceeded before any request leaves, which the
// turn ends on (termination `quota_exceeded`, agent/turn/model-call.ts). The meter itself (storage, the
// limits, the warnings on the bus) is the host's: durable-objects/conversation/turn/usage-meter.ts.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { ModelUsage } from "./call-model";
import { withStream } from "./wrapped-model";

/** A limit was reached: `words` say which and when it starts afresh (saved as the turn's explanation). */
export class QuotaExceeded extends Error {
  override readonly name = "QuotaExceeded";
  constructor(readonly words: string) {
    super(words);
  }
}

export interface UsageMeter {
  /**
   * Before a call: resolves with a ticket for `record`, or throws QuotaExceeded. `estimate` (the prompt's
   * tokens, walked on demand) is what a user with a limit reserves.
   */
  admit(estimate: () => number): Promise<unknown>;
  /**
   * After it: what it used (a call that ended without saying counts its estimate). The call's finish is
   * passed on once this resolves, so a warning it crossed reaches the next step's request.
   */
  record(ticket: unknown, usage: ModelUsage): Promise<void>;
  /** Writes what `record` held back: called at a turn's end and after a title. */
  flush(): Promise<void>;
}

export function meteredModel(model: LanguageModelV3, meter: UsageMeter): LanguageModelV3 {
  return withStream(model, (options) => meteredStream(model, meter, options));
}

async function meteredStream(model: LanguageModelV3, meter: UsageMeter, options: LanguageModelV3CallOptions) {
  let estimated: number | undefined;
  const estimate = () => {
    estimated ??= promptTokens(options.prompt);
    return estimated;
  };
  const ticket = await meter.admit(estimate);
  let recorded: Promise<void> | undefined;
  const done = (usage: ModelUsage) => {
    recorded ??= meter.record(ticket, usage);
    return recorded;
  };
  // A call that ended without saying what it used counts its estimated input.
  const fallback = () => ({ inputTokens: estimate(), outputTokens: 0 });
  let result: Awaited<ReturnType<LanguageModelV3["doStream"]>>;
  try {
    result = await model.doStream(options);
  } catch (error) {
    done(fallback());
    throw error;
  }
  const reader = result.stream.getReader();
  // One layer over the provider's stream: a part passes as it is; the finish waits for its record.
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
      try {
        next = await reader.read();
      } catch (error) {
        await done(fallback());
        throw error;
      }
      if (next.done) {
        await done(fallback());
        controller.close();
        return;
      }
      const part = next.value;
      if (part.type === "finish")
        await done({
          inputTokens: part.usage.inputTokens.total ?? estimate(),
          outputTokens: part.usage.outputTokens.total ?? 0,
        });
      controller.enqueue(part);
    },
    cancel: (reason) => {
      void done(fallback());
      return reader.cancel(reason);
    },
  });
  return { ...result, stream };
}

/** A cheap estimate of a prompt's tokens (about 4 characters each): what a call reserves of the quota. */
export function promptTokens(prompt: LanguageModelV3Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (typeof message.content === "string") {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
      else if (part.type === "tool-call") chars += typeof part.input === "string" ? part.input.length : 64;
      else if (part.type === "tool-result") {
        const output = part.output;
        chars += output.type === "text" || output.type === "error-text" ? output.value.length : 256;
      }
    }
  }
  return Math.ceil(chars / 4);
}
