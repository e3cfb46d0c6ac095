// One streamed model call through the provider interface (LanguageModelV3.doStream, which
// @ai-sdk/openai and the demo model implement). Text deltas go out as they arrive; tool calls, usage
// and the finish reason come back. We build the provider prompt ourselves (context.ts) instead of
// going through `streamText`, which re-validated the whole history with zod on every call: that cost
// grew with the conversation (55 ms per step at 2,000 messages, see bench/README.md) and we want the
// exact bytes of the prompt in our hands anyway, for byte-identical replay.
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3FunctionTool,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
} from "@ai-sdk/provider";

export interface ModelToolCall {
  callId: string;
  tool: string;
  /** Parsed arguments, or the raw text when the model sent unparsable JSON. */
  args: unknown;
  /** Set when the call is bad before any tool sees it: arguments that are not JSON. */
  problem?: "invalid_args";
}

export interface ModelCallResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: { inputTokens: number; outputTokens: number };
  finishReason: string;
}

export interface ModelCallOptions {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  tools?: LanguageModelV3FunctionTool[];
  signal: AbortSignal;
  onTextDelta?: (delta: string) => void;
}

export class ModelCallError extends Error {
  override name = "ModelCallError";
}

const RETRY_DELAY_MS = 400;

export async function callModel(options: ModelCallOptions): Promise<ModelCallResult> {
  const { stream } = await startStream(options);
  const reader = stream.getReader();
  const result: ModelCallResult = {
    text: "",
    toolCalls: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    finishReason: "unknown",
  };
  const onAbort = () => void reader.cancel(options.signal.reason).catch(() => undefined);
  options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      options.signal.throwIfAborted();
      if (done) break;
      handlePart(value, result, options);
    }
  } finally {
    options.signal.removeEventListener("abort", onAbort);
  }
  return result;
}

/** Opens the stream, retrying once when the provider says the failure is worth retrying (429, 5xx). */
async function startStream(options: ModelCallOptions) {
  const call = () =>
    options.model.doStream({
      prompt: options.prompt,
      tools: options.tools,
      toolChoice: options.tools?.length ? { type: "auto" } : undefined,
      abortSignal: options.signal,
    });
  try {
    return await call();
  } catch (error) {
    options.signal.throwIfAborted();
    if (!(APICallError.isInstance(error) && error.isRetryable)) throw asModelError(error);
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    options.signal.throwIfAborted();
    try {
      return await call();
    } catch (again) {
      throw asModelError(again);
    }
  }
}

function handlePart(part: LanguageModelV3StreamPart, result: ModelCallResult, options: ModelCallOptions): void {
  switch (part.type) {
    case "text-delta":
      result.text += part.delta;
      options.onTextDelta?.(part.delta);
      return;
    case "tool-call":
      result.toolCalls.push(parseToolCall(part.toolCallId, part.toolName, part.input));
      return;
    case "finish":
      result.usage = {
        inputTokens: part.usage.inputTokens.total ?? 0,
        outputTokens: part.usage.outputTokens.total ?? 0,
      };
      result.finishReason = part.finishReason.unified;
      return;
    case "error":
      throw asModelError(part.error);
  }
}

function parseToolCall(callId: string, tool: string, input: string): ModelToolCall {
  try {
    return { callId, tool, args: input.trim() ? JSON.parse(input) : {} };
  } catch {
    return { callId, tool, args: input, problem: "invalid_args" };
  }
}

function asModelError(error: unknown): Error {
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return error;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "the model call failed";
  return new ModelCallError(message, { cause: error });
}
