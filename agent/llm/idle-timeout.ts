// The stream idle timeout (OPENAI_STREAM_IDLE_SECONDS): a provider that sends nothing for `idleMs`,
// while we wait for its response to start or between two stream parts, is given up on. Its HTTP
// request is aborted and the call fails with a ModelCallError that says how long the model was
// silent. Without it a stalled stream holds the turn until the turn's own time limit (minutes).
// model.ts wraps the real provider with it; the wait is timed only while we wait on the provider.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ModelCallError } from "./model-call-error";

export function withIdleTimeout(model: LanguageModelV3, idleMs: number): LanguageModelV3 {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream: (options) => streamWithIdleTimeout(model, options, idleMs),
  };
}

async function streamWithIdleTimeout(model: LanguageModelV3, options: LanguageModelV3CallOptions, idleMs: number) {
  const watchdog = new IdleWatchdog(idleMs, options.abortSignal);
  // @ai-sdk/openai resolves doStream only once the first output arrives: the start is timed as a whole.
  const result = await watchdog.wait(model.doStream({ ...options, abortSignal: watchdog.signal }));
  const reader = result.stream.getReader();
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      const next = await watchdog.wait(reader.read()).catch((error: unknown) => {
        void reader.cancel(error).catch(() => undefined);
        throw error;
      });
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { ...result, stream };
}

class IdleWatchdog {
  private readonly controller = new AbortController();
  private readonly silence: ModelCallError;
  /** The caller's signal (Stop, the turn's time limit) or the watchdog's own, whichever trips first. */
  readonly signal: AbortSignal;

  constructor(
    private readonly idleMs: number,
    outer: AbortSignal | undefined,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
    this.silence = new ModelCallError(`the model sent nothing for ${idleMs / 1000} s`);
  }

  /** `work`, unless the provider stays silent for idleMs first: then its request is aborted. */
  async wait<T>(work: PromiseLike<T>): Promise<T> {
    let timer = 0;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.controller.abort(this.silence);
        reject(this.silence);
      }, this.idleMs);
    });
    try {
      return await Promise.race([work, silent]);
    } finally {
      clearTimeout(timer);
    }
  }
}
