// One streamed model call: text deltas go out as they arrive; tool calls, usage and the finish
// reason come back. Tools are declared to the model here but always executed by the agent loop.
import { type LanguageModel, type ModelMessage, streamText, type ToolSet } from "ai";

export interface ModelToolCall {
  callId: string;
  tool: string;
  /** Parsed arguments, or the raw text when the model sent unparsable JSON. */
  args: unknown;
  /** Set when the SDK already knows the call is bad: no such tool, or arguments that do not parse. */
  problem?: "unknown_tool" | "invalid_args";
}

export interface ModelCallResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: { inputTokens: number; outputTokens: number };
  finishReason: string;
}

export interface ModelCallOptions {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  signal: AbortSignal;
  onTextDelta?: (delta: string) => void;
}

export class ModelCallError extends Error {
  override name = "ModelCallError";
}

export async function callModel(options: ModelCallOptions): Promise<ModelCallResult> {
  const result = streamText({
    model: options.model,
    system: options.system,
    messages: options.messages,
    tools: options.tools,
    abortSignal: options.signal,
    maxRetries: 1,
    // Every system message in history is a typed system item the loop inserted; user, note and tool
    // text cannot forge one (context.ts neutralises reminder tags), so they are allowed on purpose.
    allowSystemInMessages: true,
    // Errors arrive as stream parts and end the turn with llm_error; the SDK's default logging would double them.
    onError: () => {},
  });
  let text = "";
  const toolCalls: ModelToolCall[] = [];
  let usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason = "unknown";
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        text += part.text;
        options.onTextDelta?.(part.text);
        break;
      case "tool-call": {
        const problem = part.invalid ? classifyInvalid(part.error) : undefined;
        toolCalls.push({ callId: part.toolCallId, tool: part.toolName, args: part.input, problem });
        break;
      }
      case "finish":
        usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 };
        finishReason = part.finishReason;
        break;
      case "error":
        throw new ModelCallError(describe(part.error), { cause: part.error });
      case "abort":
        throw options.signal.reason ?? new DOMException("aborted", "AbortError");
    }
  }
  return { text, toolCalls, usage, finishReason };
}

function classifyInvalid(error: unknown): ModelToolCall["problem"] {
  const name = error instanceof Error ? error.name : "";
  return name.includes("NoSuchTool") ? "unknown_tool" : "invalid_args";
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : "the model call failed";
}
