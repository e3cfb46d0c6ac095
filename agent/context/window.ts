// How big a request is, before it is sent. Providers count tokens with tokenizers we do not have (and
// an OpenAI-compatible server may run any model), so the size is the provider's own count for the last
// request plus an estimate of what was added since; with no count yet, the estimate of the whole.
// The estimate errs large: a UTF-8 byte per 3 (English runs ≈4 characters a token, JSON and code ≈3,
// CJK ≈1 per 3-byte character), plus a few tokens of framing per message.
import type { LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";

const BYTES_PER_TOKEN = 3;
const MESSAGE_FRAMING = 4;
const encoder = new TextEncoder();
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Byte counts of non-ASCII texts: the log's strings come back at every request of a turn. The cache is
 * the isolate's, shared by every conversation object in it and outliving them, so it is bounded by the
 * characters it holds, not by its entries: 4,096 entries could keep 4,096 tool results of 32,000
 * characters (256 MB) of conversations long finished. A million characters hold a whole context window.
 */
const utf8Bytes = new Map<string, number>();
export const MAX_CACHED_CHARS = 1_000_000;
let cachedChars = 0;

/** Characters the byte-count cache holds now (for its test). */
export const cachedTextChars = () => cachedChars;

export function estimateTokens(text: string): number {
  // Pure ASCII (the common case) is one byte a character: no encoding needed.
  if (!NON_ASCII.test(text)) return Math.ceil(text.length / BYTES_PER_TOKEN);
  let bytes = utf8Bytes.get(text);
  if (bytes === undefined) {
    bytes = encoder.encode(text).length;
    if (cachedChars + text.length > MAX_CACHED_CHARS) {
      utf8Bytes.clear();
      cachedChars = 0;
    }
    if (text.length <= MAX_CACHED_CHARS) {
      utf8Bytes.set(text, bytes);
      cachedChars += text.length;
    }
  }
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** Arguments are the log's own objects, and tool declarations one array per tool set, the same at every
 * request: each is estimated once. */
const argumentTokens = new WeakMap<object, number>();

function estimateArguments(input: unknown): number {
  if (typeof input !== "object" || input === null) return estimateTokens(JSON.stringify(input ?? null));
  let tokens = argumentTokens.get(input);
  if (tokens === undefined) {
    tokens = estimateTokens(JSON.stringify(input));
    argumentTokens.set(input, tokens);
  }
  return tokens;
}

/**
 * What an image part is counted as: providers charge by its size (OpenAI's high detail: 85 + 170 a
 * 512 px tile, 765 for 1024²; Anthropic's width × height / 750, at most ~1,600). The larger guess.
 */
export const IMAGE_TOKENS = 1_600;

/** The estimated input tokens of a request: its messages and the tool declarations sent with it. */
export function estimateRequest(prompt: LanguageModelV3Prompt, tools?: readonly LanguageModelV3FunctionTool[]): number {
  let total = tools?.length ? estimateArguments(tools) : 0;
  for (const message of prompt) {
    total += MESSAGE_FRAMING;
    if (typeof message.content === "string") total += estimateTokens(message.content);
    else
      for (const part of message.content) {
        if (part.type === "text" || part.type === "reasoning") total += estimateTokens(part.text);
        else if (part.type === "file") total += IMAGE_TOKENS;
        else if (part.type === "tool-call") total += estimateTokens(part.toolName) + estimateArguments(part.input);
        else if (part.type === "tool-result")
          total +=
            estimateTokens(part.toolName) +
            (part.output.type === "text" || part.output.type === "error-text"
              ? estimateTokens(part.output.value)
              : estimateTokens(JSON.stringify(part.output)));
        else total += estimateTokens(JSON.stringify(part));
      }
  }
  return total;
}

/**
 * The budget of a conversation's context, all in tokens of a window of `window`:
 * - compact when a request would pass `compactAt` (the rest is room for the answer);
 * - keep up to `keep` of the newest messages verbatim after a compaction;
 * - a summary may take up to `summary`;
 * - no single message may take more than `message` (a huge tool result is cut, with a marker).
 */
export interface ContextBudget {
  window: number;
  compactAt: number;
  keep: number;
  summary: number;
  message: number;
  /** The model reads its earlier reasoning back (the model's `send_reasoning`; model-messages.ts). */
  reasoning?: boolean;
}

export function contextBudget(window: number, { reasoning = false } = {}): ContextBudget {
  return {
    window,
    ...(reasoning ? { reasoning } : {}),
    compactAt: Math.floor(window * 0.75),
    keep: Math.floor(window * 0.2),
    summary: Math.min(4_000, Math.floor(window * 0.1)),
    message: Math.floor(window * 0.2),
  };
}

/** What the provider said of the last request: lets the next estimate start from a real count. */
export interface Observation {
  /** Which compaction the request's context started from (0: none), so a count is not carried across one. */
  epoch: number;
  estimated: number;
  reported: number;
}

/**
 * Remembers the provider's count for the conversation's last request (one per conversation object;
 * `saved` persists it, so an object woken from hibernation does not fall back to the cruder estimate
 * and compact early).
 */
export class ContextMeter {
  constructor(
    private last?: Observation,
    private readonly saved?: (o: Observation) => void,
  ) {}

  observe(epoch: number, estimated: number, reported: number): void {
    if (reported <= 0) return;
    this.last = { epoch, estimated, reported };
    this.saved?.(this.last);
  }

  /**
   * The predicted size of a request estimated at `estimated`: the last count plus the estimate of what
   * was added when the context only grew since; otherwise the estimate, scaled up if the provider's
   * counts ran above our estimates.
   */
  predict(epoch: number, estimated: number): number {
    const last = this.last;
    if (!last) return estimated;
    const scale = Math.max(1, last.reported / last.estimated);
    if (last.epoch === epoch && estimated >= last.estimated)
      return last.reported + Math.ceil((estimated - last.estimated) * scale);
    return Math.ceil(estimated * scale);
  }
}
