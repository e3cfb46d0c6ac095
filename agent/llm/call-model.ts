// One streamed model call through the provider interface (LanguageModelV3.doStream, which
// @ai-sdk/openai and the demo model implement). Text deltas go out as they arrive; tool calls, usage
// and the finish reason come back. We build the provider prompt ourselves (context/model-messages.ts) instead of
// going through `streamText`, which re-validated the whole history with zod on every call: that cost
// grew with the conversation (55 ms per step at 2,000 messages, see bench/README.md) and we want the
// exact bytes of the prompt in our hands anyway, for byte-identical replay. A refused request is
// retried (retry.ts); a stream that ends without the model saying how it finished is a failure, never
// an answer.
import type {
  LanguageModelV3,
  LanguageModelV3FinishReason,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { Reasoning } from "../../protocol";
import { asModelError, ModelCallError, ModelTimeout } from "./model-call-error";
import { type RetryOptions, withRetries } from "./retry";

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
  /** What the model thought before it wrote (reasoning parts, from any provider); absent when it sent none. */
  reasoning?: Reasoning;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
  /** How the model said it finished; "length" means the answer hit the output limit. */
  finishReason: FinishReason;
}

/** What one call used; `cachedInputTokens` (part of inputTokens) only when the provider reports it. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  /** Output tokens spent reasoning (part of outputTokens), when the provider reports them. */
  reasoningTokens?: number;
}

type FinishReason = LanguageModelV3FinishReason["unified"];
/** A result while its stream is read: the finish reason comes last, if at all. */
type ResultSoFar = Omit<ModelCallResult, "finishReason"> & {
  finishReason?: FinishReason;
  /** Tool calls whose arguments are still streaming (tool-input-start … tool-input-delta). */
  inputs: Map<string, { tool: string; text: string }>;
  reasoningText: string;
  /** When the first reasoning part came, and when the model moved on from reasoning (text, a tool call). */
  thinking?: { started: number; ended?: number };
};

/** `signal` (Stop, the time limit), `deadline` and `onRetry` govern retries too (retry.ts). */
export interface ModelCallOptions extends RetryOptions {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  tools?: LanguageModelV3FunctionTool[];
  /** "none": the tools are declared (the prompt stays as cacheable as the turn's) but may not be called. */
  toolChoice?: "auto" | "none";
  maxOutputTokens?: number;
  onTextDelta?: (delta: string) => void;
  /** The model's reasoning as it streams (before its text). */
  onReasoningDelta?: (delta: string) => void;
  /**
   * The model answered: its first part (text, reasoning, a tool call, or the finish) has been read and
   * passed on. Not when doStream resolves: @ai-sdk/openai-compatible resolves on the response's headers,
   * and work started then (the object's D1 reads) held the first text back by ~5 ms under workerd.
   */
  onResponseStart?: () => void;
  /**
   * A tool call's arguments have streamed in whole (they parse as a JSON object, given here), possibly
   * well before the stream ends with its finish and usage.
   */
  onToolInput?: (callId: string, tool: string, args: Record<string, unknown>) => void;
}

/** The parts that show the model has answered (not the stream's opening and metadata). */
const ANSWERED = new Set<LanguageModelV3StreamPart["type"]>([
  "text-delta",
  "reasoning-delta",
  "tool-input-start",
  "tool-call",
  "finish",
]);

const CUT_OFF = "the model's answer was cut off (its stream ended before the model said it had finished)";

export async function callModel(options: ModelCallOptions): Promise<ModelCallResult> {
  const { stream } = await withRetries(
    () =>
      options.model.doStream({
        prompt: options.prompt,
        tools: options.tools,
        toolChoice: options.tools?.length ? { type: options.toolChoice ?? "auto" } : undefined,
        maxOutputTokens: options.maxOutputTokens,
        abortSignal: options.signal,
      }),
    options,
  );
  const reader = stream.getReader();
  let answered = false;
  const result: ResultSoFar = {
    text: "",
    toolCalls: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    inputs: new Map(),
    reasoningText: "",
  };
  const onAbort = () => void reader.cancel(options.signal.reason).catch(() => undefined);
  options.signal.addEventListener("abort", onAbort, { once: true });
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      options.signal.throwIfAborted();
      if (done) {
        ended = true;
        break;
      }
      handlePart(value, result, options);
      if (!answered && ANSWERED.has(value.type)) {
        answered = true;
        options.onResponseStart?.();
      }
    }
  } catch (error) {
    // A response that started (its headers, the stream's opening) with nothing in it: no answer at all.
    if (!answered && error instanceof ModelTimeout && error.waited === "stream")
      throw new ModelTimeout("answer", error.seconds);
    throw error;
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    // A call that failed mid-stream (an error part, a cut-off finish) lets go of the rest: the
    // request and its idle watch end now, not when the provider next writes.
    if (!ended) void reader.cancel().catch(() => undefined);
  }
  // No finish part at all: the stream ended without the provider's own closing.
  if (!result.finishReason) throw new ModelCallError(CUT_OFF);
  const { text, toolCalls, usage, finishReason } = result;
  return { text, toolCalls, usage, finishReason, ...reasoningOf(result) };
}

/** The call's reasoning, timed from its first part to the moment the model moved on (else the end). */
function reasoningOf(result: ResultSoFar): { reasoning: Reasoning } | undefined {
  if (!result.thinking || !result.reasoningText) return undefined;
  const { started, ended = Date.now() } = result.thinking;
  return { reasoning: { text: result.reasoningText, duration_ms: Math.max(0, Math.round(ended - started)) } };
}

/** The model moved on from reasoning: its thinking time ends here. */
function thought(result: ResultSoFar): void {
  if (result.thinking && result.thinking.ended === undefined) result.thinking.ended = Date.now();
}

function handlePart(part: LanguageModelV3StreamPart, result: ResultSoFar, options: ModelCallOptions): void {
  switch (part.type) {
    case "reasoning-delta":
      if (!part.delta) return;
      result.thinking ??= { started: Date.now() };
      result.reasoningText += part.delta;
      options.onReasoningDelta?.(part.delta);
      return;
    case "reasoning-end":
      thought(result);
      return;
    case "text-delta":
      thought(result);
      result.text += part.delta;
      options.onTextDelta?.(part.delta);
      return;
    case "tool-input-start":
      thought(result);
      if (options.onToolInput) result.inputs.set(part.id, { tool: part.toolName, text: "" });
      return;
    case "tool-input-delta": {
      const input = result.inputs.get(part.id);
      if (!input) return;
      input.text += part.delta;
      const args = wholeObject(input.text);
      if (args) {
        result.inputs.delete(part.id);
        options.onToolInput?.(part.id, input.tool, args);
      }
      return;
    }
    case "tool-call":
      thought(result);
      result.toolCalls.push(parseToolCall(part.toolCallId, part.toolName, part.input));
      return;
    case "finish":
      if (isCutOff(part.finishReason)) throw new ModelCallError(CUT_OFF);
      // @ai-sdk/openai reads cacheRead from prompt_tokens_details.cached_tokens (Chat Completions) and
      // input_tokens_details.cached_tokens (Responses).
      result.usage = {
        inputTokens: part.usage.inputTokens.total ?? 0,
        outputTokens: part.usage.outputTokens.total ?? 0,
        ...(part.usage.inputTokens.cacheRead !== undefined
          ? { cachedInputTokens: part.usage.inputTokens.cacheRead }
          : {}),
        // Chat Completions' completion_tokens_details.reasoning_tokens, Responses' output_tokens_details.
        ...(part.usage.outputTokens.reasoning ? { reasoningTokens: part.usage.outputTokens.reasoning } : {}),
      };
      result.finishReason = part.finishReason.unified;
      return;
    case "error":
      // @ai-sdk/openai-compatible says a stream that ended without a finish reason with an error part.
      if (isMissingFinish(part.error)) throw new ModelCallError(CUT_OFF);
      throw asModelError(part.error);
  }
}

/** Arguments that are a whole JSON object, parsed: one more delta could only make them invalid. */
function wholeObject(text: string): Record<string, unknown> | undefined {
  if (!text.trimEnd().endsWith("}")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function parseToolCall(callId: string, tool: string, input: string): ModelToolCall {
  try {
    return { callId, tool, args: input.trim() ? JSON.parse(input) : {} };
  } catch {
    return { callId, tool, args: input, problem: "invalid_args" };
  }
}

const isMissingFinish = (error: unknown) =>
  error instanceof Error && /stream ended without a finish reason/i.test(error.message);

/**
 * A stream that ended before the model said how it finished. @ai-sdk/openai (3.0.x) then still closes
 * it with a `finish` part, its default {unified: "other", raw: undefined}: Chat Completions when no
 * chunk carried a finish_reason, Responses when neither response.completed nor response.incomplete
 * came. A provider that really answered "other" names its own raw reason.
 */
function isCutOff(reason: LanguageModelV3FinishReason): boolean {
  return reason.unified === "other" && reason.raw === undefined;
}
