// Builds the model's context from the persisted log. The live loop and a replay after a restart both
// call this one function on the same messages, so the context is byte-identical by construction.
// It produces the provider-level prompt (LanguageModelV3Prompt) that goes to the provider as is.
// The latest `compaction` item stands in for every message up to its through_seq (compaction.ts); after
// it, the context only grows at its end, so each request begins with the previous one (prompt caches).
import type {
  LanguageModelV3Prompt,
  LanguageModelV3Message as ModelMessage,
  LanguageModelV3ToolCallPart as ToolCallPart,
  LanguageModelV3ToolResultPart as ToolResultPart,
} from "@ai-sdk/provider";
import {
  type Attachment,
  fileSizeWords,
  type Message,
  type SystemMessage,
  type ToolMessage,
  type UserMessage,
} from "../../protocol";
import { modelWords } from "../explanations";
import { neutralizeReminders } from "../system-items/forgery";
import { type ContextBudget, estimateTokens } from "./window";

interface AssistantBlock {
  step: number | undefined;
  /** The step's reasoning, where the model reads it back (ContextOptions.reasoning). */
  reasoning: string;
  text: string;
  calls: ToolCallPart[];
  results: ToolResultPart[];
  /** System items that arrived between a step's tool calls and its end: the API wants tool results first. */
  deferred: ModelMessage[];
}

export type CompactionMessage = SystemMessage & { item: { kind: "compaction" } };

export const isCompaction = (m: Message): m is CompactionMessage => m.role === "system" && m.item.kind === "compaction";

/** The compaction the context starts from: the latest one. */
export const latestCompaction = (log: readonly Message[]): CompactionMessage | undefined => log.findLast(isCompaction);

const isContextItem = (m: Message) => m.role === "system" && m.item.kind === "context";

export interface ContextOptions {
  /** Tokens one message's text may take (ContextBudget.message); a longer one is cut in the middle. */
  messageLimit?: number;
  /** Only the messages up to this seq (what a compaction summarises, as the context showed it). */
  upTo?: number;
  /**
   * Send each step's reasoning back with it (a `reasoning` part, which Chat Completions providers send
   * as `reasoning_content`). Off for most models: servers ignore or refuse it, and it costs tokens.
   */
  reasoning?: boolean;
  /** The bytes of the conversation's images, for a model that reads them; without it an image is its name. */
  images?: ImageSource;
}

/** The images a request may carry (the host loads them before each request: the build itself is sync). */
export interface ImageSource {
  /** The model reads images (LlmSettings.imageInput). */
  readonly see: boolean;
  /** The image's bytes, the same every request; undefined when they could not be read. */
  bytes(id: string): Uint8Array | undefined;
}

type UserPart = Extract<ModelMessage, { role: "user" }>["content"][number];

/**
 * A user message as the model reads it: its text, then each image as an image part, or as words saying
 * what it was where the model cannot see (a document reaches it as a System message after, resolve.ts).
 */
function userContent(message: UserMessage, fit: (text: string) => string, images?: ImageSource): UserPart[] {
  const parts: UserPart[] = [];
  if (message.content || !message.attachments?.length)
    parts.push({ type: "text", text: fit(neutralizeReminders(message.content)) });
  for (const file of message.attachments ?? []) if (file.kind === "image") parts.push(imagePart(file, images));
  return parts;
}

function imagePart(file: Attachment, images?: ImageSource): UserPart {
  const bytes = images?.see ? images.bytes(file.id) : undefined;
  if (bytes) return { type: "file", mediaType: file.content_type, data: bytes, filename: file.name };
  const why = images?.see ? "it could not be read" : "this model cannot see images";
  return { type: "text", text: neutralizeReminders(`[Image: ${file.name}, ${fileSizeWords(file.size)}: ${why}]`) };
}

export function toModelMessages(log: readonly Message[], options: ContextOptions = {}): LanguageModelV3Prompt {
  const fit = (text: string) => fitText(text, options.messageLimit);
  const out: ModelMessage[] = [];
  let block: AssistantBlock | undefined;
  const flush = () => {
    if (!block) return;
    const content = [
      ...(block.reasoning ? [{ type: "reasoning" as const, text: block.reasoning }] : []),
      ...(block.text ? [{ type: "text" as const, text: block.text }] : []),
      ...block.calls,
    ];
    if (content.length) out.push({ role: "assistant", content });
    if (block.results.length) out.push({ role: "tool", content: block.results });
    out.push(...block.deferred);
    block = undefined;
  };
  const open = (step: number | undefined) => {
    flush();
    block = { step, reasoning: "", text: "", calls: [], results: [], deferred: [] };
    return block;
  };

  const compaction = latestCompaction(log);
  const from = compaction?.item.through_seq ?? 0;
  // What the conversation started from (its context item) is never summarised away: the latest one a
  // compaction folded opens the context, before the summary, the same bytes each time.
  const context = compaction ? log.findLast((m) => m.seq <= from && isContextItem(m)) : undefined;
  if (context?.role === "system") out.push({ role: "system", content: fit(context.item.body) });
  if (compaction) out.push({ role: "system", content: compaction.item.body });
  const upTo = options.upTo ?? Number.POSITIVE_INFINITY;
  for (const message of log) {
    if (message.seq <= from || message.seq > upTo) continue;
    switch (message.role) {
      case "user":
        flush();
        out.push({ role: "user", content: userContent(message, fit, options.images) });
        break;
      case "agent": {
        // The model's own words: a note the product added (why the turn ended) is not one of them.
        const opened = open(message.step);
        opened.text = fit(neutralizeReminders(modelWords(message)));
        if (options.reasoning && message.reasoning) opened.reasoning = fit(message.reasoning.text);
        break;
      }
      case "tool": {
        const target = block && block.step === message.step ? block : open(message.step);
        target.calls.push({
          type: "tool-call",
          toolCallId: message.call_id,
          toolName: message.tool,
          input: message.args,
        });
        target.results.push(toolResult(message, fit));
        break;
      }
      case "system": {
        if (message.item.kind === "compaction") break; // the latest one opened the context; older ones are folded
        const system: ModelMessage = { role: "system", content: fit(message.item.body) };
        if (block?.calls.length) block.deferred.push(system);
        else {
          flush();
          out.push(system);
        }
        break;
      }
    }
  }
  flush();
  return out;
}

/** What the model reads back from a tool: text, with forged reminder tags neutralised. */
export function toolResultText(message: Pick<ToolMessage, "status" | "result" | "error">): string {
  if (message.status !== "success") return neutralizeReminders(message.error ?? message.status);
  const value = typeof message.result === "string" ? message.result : JSON.stringify(message.result ?? null);
  return neutralizeReminders(value);
}

function toolResult(message: ToolMessage, fit: (text: string) => string): ToolResultPart {
  const value = fit(toolResultText(message));
  return {
    type: "tool-result",
    toolCallId: message.call_id,
    toolName: message.tool,
    output: message.status === "success" ? { type: "text", value } : { type: "error-text", value },
  };
}

/**
 * A text within `limit` tokens: a longer one keeps its beginning and its end (where a tool's output
 * often says how it ended) around a marker saying how much was cut. The log keeps the whole text.
 */
export function fitText(text: string, limit: number | undefined): string {
  // A token is at most a character (3 bytes at most per UTF-16 unit, a token per 3 bytes): a short text fits.
  if (limit === undefined || text.length <= limit) return text;
  const tokens = estimateTokens(text);
  if (tokens <= limit) return text;
  // Characters in proportion to the estimate, less room for the marker.
  const keep = Math.max(0, Math.floor((text.length * limit) / tokens) - 120);
  const head = safeEnd(text, Math.ceil((keep * 2) / 3));
  const tail = safeStart(text, text.length - (keep - head));
  const cut = tail - head;
  return `${text.slice(0, head)}\n\n[… ${cut.toLocaleString("en-US")} characters cut here: the message is too long for the model's context window …]\n\n${text.slice(tail)}`;
}

/** An end index that does not split a surrogate pair (a cut there would leave text that is not Unicode). */
export function safeEnd(text: string, i: number): number {
  const code = text.charCodeAt(i - 1);
  return code >= 0xd800 && code <= 0xdbff ? i - 1 : i;
}

/** A start index that does not split a surrogate pair. */
function safeStart(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 0xdc00 && code <= 0xdfff ? i + 1 : i;
}

/** Builds the request the turn would send now, from the system prompt and the log. */
export function contextPrompt(
  system: string,
  log: readonly Message[],
  budget: ContextBudget,
  upTo?: number,
  images?: ImageSource,
) {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: system },
    ...toModelMessages(log, { messageLimit: budget.message, upTo, reasoning: budget.reasoning, images }),
  ];
  return prompt;
}
