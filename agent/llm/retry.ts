// Retries a model request the provider refused for a passing reason (APICallError.isRetryable: 429,
// 5xx, a connection that failed). It waits as long as the provider asks (retry-after.ts) or backs off
// exponentially with jitter, never past the turn's deadline, and reports each retry before waiting,
// so the user and the model see it. Stop cuts a wait short. Only the start of a stream is retried:
// once text has reached the user, a failure is the call's.
import { APICallError } from "@ai-sdk/provider";
import { asModelError, ModelCallError, messageWithStatus } from "./model-call-error";
import { retryAfterMs } from "./retry-after";

export const MAX_RETRIES = 3;
/** The backoff before the first retry when the provider names no wait; doubled for each further one. */
export const FIRST_BACKOFF_MS = 500;
const JITTER = 0.25;

export interface ModelRetry {
  /** The refused request's HTTP status; undefined when no response came. */
  status: number | undefined;
  /** 1 for the first retry, up to MAX_RETRIES. */
  attempt: number;
  waitMs: number;
  /** The provider's error message. */
  message: string;
}

export interface RetryOptions {
  signal: AbortSignal;
  /** Epoch ms at which the turn's time runs out. */
  deadline: number;
  onRetry?: (retry: ModelRetry) => void;
}

export async function withRetries<T>(request: () => PromiseLike<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      options.signal.throwIfAborted();
      if (!isRetryable(error)) throw asModelError(error);
      if (attempt > MAX_RETRIES)
        throw new ModelCallError(`${messageWithStatus(error)} (after ${MAX_RETRIES} retries)`, {
          cause: error,
          retryNote: `It still failed after ${MAX_RETRIES} retries.`,
        });
      const api = APICallError.isInstance(error) ? error : undefined;
      const asked = retryAfterMs(api?.responseHeaders);
      const waitMs = asked ?? backoffMs(attempt);
      if (Date.now() + waitMs > options.deadline) throw noTimeToWait(error, asked);
      options.onRetry?.({ status: api?.statusCode, attempt, waitMs, message: error.message });
      await sleep(waitMs, options.signal);
    }
  }
}

/**
 * A refusal for a passing reason, or a connection that failed before any answer: workerd reports a
 * refused or dropped connection as a plain Error ("Network connection lost.") that the AI SDK does not
 * wrap as a retryable APICallError, as it does Node's "fetch failed".
 */
function isRetryable(error: unknown): error is Error {
  if (APICallError.isInstance(error)) return error.isRetryable;
  return error instanceof Error && CONNECTION_FAILED.test(error.message);
}
const CONNECTION_FAILED = /network connection lost|fetch failed|connection (?:refused|reset)|ECONNREFUSED|ECONNRESET/i;

const backoffMs = (attempt: number) => FIRST_BACKOFF_MS * 2 ** (attempt - 1) * (1 + Math.random() * JITTER);

function noTimeToWait(error: Error, askedMs: number | undefined): ModelCallError {
  const why =
    askedMs === undefined
      ? "no time is left in the turn to retry"
      : `the provider asked to wait ${Math.ceil(askedMs / 1000)} s, longer than the turn has left`;
  return new ModelCallError(`${messageWithStatus(error)}; ${why}`, {
    cause: error,
    retryNote: `Not retried: ${why}.`,
  });
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it trips. */
/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
