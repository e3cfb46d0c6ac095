// The stream idle timeout (OPENAI_STREAM_IDLE_SECONDS): a provider that sends nothing for `idleMs`,
// while we wait for its response to start or between two stream parts, is given up on. Its HTTP
// request is aborted and the call fails with a ModelTimeout that says how long the model was silent,
// and whether its response had begun. Without it a stalled stream holds the turn until the turn's own
// time limit (minutes).
// model.ts wraps the real provider with it; the wait is timed only while we wait on the provider.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ModelTimeout } from "./model-call-error";
import { withStream } from "./wrapped-model";

export function withIdleTimeout(model: LanguageModelV3, idleMs: number): LanguageModelV3 {
  return withStream(model, (options) => streamWithIdleTimeout(model, options, idleMs));
}

async function streamWithIdleTimeout(model: LanguageModelV3, options: LanguageModelV3CallOptions, idleMs: number) {
  const watchdog = new IdleWatchdog(idleMs, options.abortSignal);
  // @ai-sdk/openai resolves doStream only once the first output arrives: the start is timed as a whole.
  let result: Awaited<ReturnType<LanguageModelV3["doStream"]>>;
  try {
    result = await watchdog.wait(model.doStream({ ...options, abortSignal: watchdog.signal }));
  } catch (error) {
    watchdog.dispose();
    throw error;
  }
  watchdog.started = true;
  const reader = result.stream.getReader();
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      const next = await watchdog.wait(reader.read()).catch((error: unknown) => {
        watchdog.dispose();
        void reader.cancel(error).catch(() => undefined);
        throw error;
      });
      if (next.done) {
        watchdog.dispose();
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel: (reason) => {
      watchdog.dispose();
      return reader.cancel(reason);
    },
  });
  return { ...result, stream };
}

class IdleWatchdog {
  private readonly controller = new AbortController();
  /** The response has started (doStream resolved): silence from here is a stream that stopped. */
  started = false;
  /** The caller's signal (Stop, the turn's time limit) or the watchdog's own, whichever trips first. */
  readonly signal: AbortSignal;
  /**
   * One timer for the whole call, not one per stream part: a wait only notes when it began, and the
   * timer, when it fires, either trips (the wait under way began idleMs ago or more) or sleeps again
   * until that wait's idleMs are up. A part costs no timer of its own.
   */
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the wait under way began; undefined between waits. */
  private since: number | undefined;
  private tripCurrent: ((error: ModelTimeout) => void) | undefined;

  constructor(
    private readonly idleMs: number,
    outer: AbortSignal | undefined,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal;
  }

  /** `work`, unless the provider stays silent for idleMs first: then its request is aborted. */
  async wait<T>(work: PromiseLike<T>): Promise<T> {
    this.since = Date.now();
    const silent = new Promise<never>((_, reject) => {
      this.tripCurrent = reject;
    });
    this.timer ??= setTimeout(this.check, this.idleMs);
    try {
      return await Promise.race([work, silent]);
    } finally {
      this.since = undefined;
      this.tripCurrent = undefined;
    }
  }

  /** Ends the watch (the stream finished or was cancelled): no timer outlives the call. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    this.timer = undefined;
    // Between waits: the next wait arms the timer again.
    if (this.since === undefined) return;
    const left = this.since + this.idleMs - Date.now();
    if (left > 0) {
      this.timer = setTimeout(this.check, left);
      return;
    }
    const silence = new ModelTimeout(this.started ? "stream" : "answer", this.idleMs / 1000);
    this.controller.abort(silence);
    this.tripCurrent?.(silence);
  };
}
