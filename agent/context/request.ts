// The model request of a turn's next call: the system prompt and the log as the model reads it
// (model-messages.ts), plus the phase's instruction; compacted first (compaction.ts) when it would pass
// the budget's threshold. Its size is predicted from the provider's last count (window.ts).
import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { Message, MessageDraft } from "../../protocol";
import type { ModelUsage } from "../llm/call-model";
import type { ModelRetry } from "../llm/retry";
import { compact } from "./compaction";
import { contextPrompt, type ImageSource, latestCompaction } from "./model-messages";
import { type ContextBudget, type ContextMeter, estimateRequest } from "./window";

export interface ModelRequest {
  prompt: LanguageModelV3Prompt;
  /** The compaction the context starts from (its seq; 0 for none), for the meter. */
  epoch: number;
  /** Our estimate of the request's tokens, and the size predicted from the provider's last count. */
  estimated: number;
  size: number;
}

/** What building a turn's requests needs; the same for every request of the turn. */
export interface RequestContext {
  model: LanguageModelV3;
  system: string;
  /** Every tool of the turn, declared: the summary call begins like the turn's requests (prompt cache). */
  tools: LanguageModelV3FunctionTool[];
  budget: ContextBudget;
  meter: ContextMeter;
  signal: AbortSignal;
  deadline: number;
  log(): readonly Message[];
  /** The conversation's images, loaded before each request (absent: images reach the model as names). */
  images?: ImageSource;
  /** Persists the compaction item: the log, and so every later request, starts from it. */
  append(draft: MessageDraft): Promise<unknown>;
  /** The summary call's usage, charged to the turn. */
  charge(usage: ModelUsage): void;
  onRetry(retry: ModelRetry): void;
}

/** The request as the log stands now, with `instruction` (a phase's, never persisted) at its end. */
export function buildRequest(
  ctx: Pick<RequestContext, "system" | "budget" | "meter" | "log" | "images">,
  tools: readonly LanguageModelV3FunctionTool[] | undefined,
  instruction: string | undefined,
): ModelRequest {
  const log = ctx.log();
  const prompt = contextPrompt(ctx.system, log, ctx.budget, undefined, ctx.images);
  if (instruction) prompt.push({ role: "system", content: instruction });
  const estimated = estimateRequest(prompt, tools);
  const epoch = latestCompaction(log)?.seq ?? 0;
  return { prompt, epoch, estimated, size: ctx.meter.predict(epoch, estimated) };
}

/**
 * The request to send now, compacted first when it would pass the budget's threshold. Throws when even
 * the compacted context would not fit the window.
 */
export async function fitRequest(
  ctx: RequestContext,
  tools: readonly LanguageModelV3FunctionTool[] | undefined,
  instruction: string | undefined,
): Promise<ModelRequest> {
  const { budget } = ctx;
  let request = buildRequest(ctx, tools, instruction);
  if (request.size > budget.compactAt) {
    const done = await compact({
      model: ctx.model,
      system: ctx.system,
      tools: ctx.tools,
      budget,
      log: ctx.log(),
      tokensBefore: request.size,
      estimatedBefore: request.estimated,
      signal: ctx.signal,
      deadline: ctx.deadline,
      onRetry: ctx.onRetry,
    });
    if (done?.usage) ctx.charge(done.usage);
    if (done) await ctx.append(done.draft);
    request = buildRequest(ctx, tools, instruction);
  }
  if (request.size > budget.window)
    throw new Error(
      `the conversation's context (about ${request.size} tokens) does not fit the model's context window (${budget.window} tokens), even compacted`,
    );
  return request;
}
