// Context compaction: when a request would pass the budget's threshold, everything but the newest
// messages is replaced, in the model's context only, by a summary the model writes in one call. The
// summary is persisted as a `compaction` system item, so the context stays a pure function of the log
// (context/model-messages.ts) and a replay sends the same bytes. If that call fails, or its answer is too long, a
// deterministic cut stands in: the oldest messages are dropped and listed. A turn never fails because
// the history is long.
import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { Message, MessageDraft, SystemItem } from "../../protocol";
import { callModel, type ModelUsage } from "../llm/call-model";
import type { ModelRetry } from "../llm/retry";
import { render } from "../prompts/prompts.generated";
import { neutralizeReminders } from "../system-items/forgery";
import { contextPrompt, isCompaction, latestCompaction, toModelMessages } from "./model-messages";
import { summarizeNotifications } from "./notification-summary";
import { type ContextBudget, estimateRequest, estimateTokens } from "./window";

export const COMPACTION_SOURCE = "Context";

export interface CompactionRequest {
  model: LanguageModelV3;
  /** The turn's system prompt and tool declarations: the summary call begins like the turn's requests, so
   * the provider's prompt cache serves it. `toolChoice: none` keeps the model from calling them. */
  system: string;
  tools: LanguageModelV3FunctionTool[] | undefined;
  budget: ContextBudget;
  log: readonly Message[];
  /** The size of the request that did not fit: predicted (from the provider's count) and estimated. */
  tokensBefore: number;
  estimatedBefore: number;
  signal: AbortSignal;
  deadline: number;
  /** A refused summary call being retried: told to the user like any other retry. */
  onRetry?: (retry: ModelRetry) => void;
}

export interface Compaction {
  draft: Extract<MessageDraft, { role: "system" }>;
  /** What the summary call used (charged to the turn), when it was made. */
  usage?: ModelUsage;
}

/** The compaction to persist, or undefined when there is nothing left to fold (or the turn was stopped). */
export async function compact(request: CompactionRequest): Promise<Compaction | undefined> {
  const { log, budget } = request;
  // Sizes in the provider's terms: our estimate, scaled as the prediction of the current request was.
  const scale = request.tokensBefore / Math.max(1, request.estimatedBefore);
  const size = (prompt: LanguageModelV3Prompt) => Math.ceil(estimateRequest(prompt, request.tools) * scale);
  const through = planCut(log, budget);
  if (through === undefined) return undefined;
  const summarised = log.filter((m) => m.seq <= through && !isCompaction(m));
  const previous = latestCompaction(log);
  const notifications = summarizeNotifications(summarised.filter((m) => m.seq > (previous?.item.through_seq ?? 0)));

  let summary: string | undefined;
  let failure: string;
  let usage: ModelUsage | undefined;
  const prompt = contextPrompt(request.system, log, budget, through);
  const words = Math.floor(budget.summary * 0.6);
  prompt.push({
    role: "user",
    content: [{ type: "text", text: render("compaction", { previous: !!previous, words }) }],
  });
  if (size(prompt) + budget.summary > budget.window) {
    failure = "the messages to summarise do not fit the context window themselves";
  } else {
    try {
      const result = await callModel({
        model: request.model,
        prompt,
        tools: request.tools,
        toolChoice: "none",
        maxOutputTokens: budget.summary,
        signal: request.signal,
        deadline: request.deadline,
        onRetry: request.onRetry,
      });
      usage = result.usage;
      const text = result.text.trim();
      if (!text) failure = "the model's summary was empty";
      else if (result.finishReason === "length" || estimateTokens(text) > budget.summary)
        failure = "the model's summary was too long";
      else {
        summary = neutralizeReminders(text);
        failure = "";
      }
    } catch (error) {
      if (request.signal.aborted) return undefined;
      failure = `the summary call failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  const method = summary !== undefined ? "summary" : "cut";
  const text =
    summary !== undefined
      ? [summary, notifications].filter(Boolean).join("\n\n")
      : cutSummary(summarised, previous?.item.body, notifications, failure, budget);
  const body = render("compaction-body", { through, summary: text }).trim();
  const item: Extract<SystemItem, { kind: "compaction" }> = {
    kind: "compaction",
    body,
    through_seq: through,
    tokens_before: request.tokensBefore,
    tokens_after: 0,
    method,
  };
  // The size of the context from now on: the same function the next request is built with.
  const after: Message = {
    seq: Number.MAX_SAFE_INTEGER,
    id: "",
    created_at: "",
    role: "system",
    source: COMPACTION_SOURCE,
    severity: "info",
    item,
  };
  item.tokens_after = size(contextPrompt(request.system, [...log, after], budget));
  return { draft: { role: "system", source: COMPACTION_SOURCE, severity: "info", item }, usage };
}

/**
 * The seq up to which to summarise: the newest messages that fit in `budget.keep` stay, cut where a
 * turn begins (a user message) if one fits, else where a step begins. Undefined when nothing newer
 * than the last compaction can go.
 */
export function planCut(log: readonly Message[], budget: ContextBudget): number | undefined {
  const from = latestCompaction(log)?.item.through_seq ?? 0;
  const live = log.filter((m) => m.seq > from && !isCompaction(m));
  if (!live.length) return undefined;
  let kept = 0;
  let turnStart: number | undefined;
  let stepStart: number | undefined;
  for (let i = live.length - 1; i > 0; i--) {
    kept += messageTokens(live[i] as Message, budget.message);
    if (kept > budget.keep) break;
    if (!startsBlock(live, i)) continue;
    stepStart = i;
    if (live[i]?.role === "user") turnStart = i;
  }
  const first = turnStart ?? stepStart;
  return (first === undefined ? live.at(-1) : live[first - 1])?.seq;
}

/** A message the context would begin a new model message with (never a result apart from its call). */
function startsBlock(live: readonly Message[], i: number): boolean {
  const m = live[i] as Message;
  if (m.role === "user" || m.role === "agent") return true;
  if (m.role !== "tool") return false;
  let j = i - 1;
  while (j >= 0 && live[j]?.role === "system") j--;
  const before = live[j];
  return !(before?.role === "tool" || before?.role === "agent") || before.step !== m.step;
}

/** A message's estimated share of the context, as model-messages.ts would render it. */
function messageTokens(m: Message, limit: number): number {
  const prompt = toModelMessages([m], { messageLimit: limit });
  return estimateRequest(prompt);
}

const MAX_QUOTE = 300;

/**
 * The deterministic stand-in for a summary: which messages were dropped, the earlier summary, the
 * user's requests (newest kept first when space runs out), the tools used and the notes they touched.
 */
export function cutSummary(
  dropped: readonly Message[],
  earlier: string | undefined,
  notifications: string | undefined,
  why: string,
  budget: ContextBudget,
): string {
  const requests = dropped.flatMap((m) => (m.role === "user" ? [quote(neutralizeReminders(m.content))] : []));
  const tools = new Map<string, number>();
  const notes = new Set<string>();
  for (const m of dropped) {
    if (m.role !== "tool") continue;
    tools.set(m.tool, (tools.get(m.tool) ?? 0) + 1);
    const path = (m.args as { path?: unknown } | null)?.path;
    if (typeof path === "string" && m.tool.startsWith("vault_")) notes.add(path);
  }
  const head = `No summary could be written (${why}), so the oldest messages were dropped from the model's context. What they held:`;
  const toolLine = tools.size
    ? `Tools used: ${[...tools].map(([name, n]) => `${name} ×${n}`).join(", ")}.${notes.size ? ` Notes: ${[...notes].join(", ")}.` : ""}`
    : "";
  const compose = (kept: string[], earlierText: string | undefined) =>
    [
      head,
      earlierText ? `Earlier summary:\n${earlierText}` : "",
      kept.length ? `The user's messages, oldest first:\n${kept.map((r) => `- ${r}`).join("\n")}` : "",
      toolLine,
      notifications ?? "",
    ]
      .filter(Boolean)
      .join("\n\n");
  let kept = requests;
  let earlierText = earlier;
  let text = compose(kept, earlierText);
  // Over the budget: drop the oldest requests first, then shorten the earlier summary.
  while (estimateTokens(text) > budget.summary && kept.length) {
    kept = kept.slice(1);
    text = compose(kept, earlierText);
  }
  if (estimateTokens(text) > budget.summary && earlierText) {
    earlierText = `${earlierText.slice(0, Math.max(0, (budget.summary - estimateTokens(compose([], undefined))) * 3 - 40))}…`;
    text = compose(kept, earlierText);
  }
  return text;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_QUOTE ? `"${line.slice(0, MAX_QUOTE)}…"` : `"${line}"`;
}
