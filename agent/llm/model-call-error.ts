// The error a model call fails with, whatever went wrong (an HTTP error, a cut-off or silent stream,
// a refused retry): its message is what the saved answer shows after "The model call failed:".
// Aborts (Stop, the turn's time limit) stay what they are: the loop reads those from its own signals, as
// is a quota the user has used up (metered-model.ts).
import { QuotaExceeded } from "./metered-model";
export class ModelCallError extends Error {
  override name = "ModelCallError";
  /** What the retries add to the plain words of the failure ("It still failed after 3 retries."). */
  readonly retryNote: string | undefined;

  constructor(message: string, options?: ErrorOptions & { retryNote?: string }) {
    super(message, options);
    this.retryNote = options?.retryNote;
  }
}

/**
 * The provider kept the call waiting past a limit: it sent no answer at all ("answer"), stopped sending
 * mid-answer ("stream": the stream idle timeout), or began a one-piece answer and did not finish it
 * ("finish": the provider test's limit on a request). Its own message is plain words already;
 * error-words.ts says it with the provider's name.
 */
export class ModelTimeout extends ModelCallError {
  override name = "ModelTimeout";

  constructor(
    readonly waited: "answer" | "stream" | "finish",
    readonly seconds: number,
  ) {
    super(`the model server ${TIMEOUT_WORDS[waited](seconds)}`);
  }
}

/** What a ModelTimeout says after the server's name. */
export const TIMEOUT_WORDS: Record<ModelTimeout["waited"], (seconds: number) => string> = {
  answer: (s) => `did not answer within ${s} s`,
  stream: (s) => `stopped sending for ${s} s`,
  finish: (s) => `began to answer but did not finish within ${s} s`,
};

export function asModelError(error: unknown): Error {
  if (error instanceof ModelCallError || error instanceof QuotaExceeded) return error;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return error;
  return new ModelCallError(messageWithStatus(error), { cause: error });
}

/** The error's message led by its HTTP status, so the UI can say "check the API key" for a 401 whatever words the provider chose. */
export function messageWithStatus(error: unknown): string {
  const status = statusOf(error);
  const message = messageOf(error);
  return status && !message.includes(String(status)) ? `HTTP ${status}: ${message}` : message;
}

/** The HTTP status of a provider's refusal (@ai-sdk/provider's APICallError carries it as statusCode). */
function statusOf(error: unknown): number | undefined {
  const status =
    typeof error === "object" && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === "number" && status >= 400 && status <= 599 ? status : undefined;
}

/** An Error's message, a string, or the `message` of an error object a stream sent (OpenAI's `{error: {message}}`). */
function messageOf(error: unknown): string {
  if (error instanceof Error || (typeof error === "object" && error !== null && "message" in error)) {
    const { message } = error as { message: unknown };
    if (typeof message === "string" && message) return message;
  }
  return typeof error === "string" && error ? error : "the model call failed";
}
