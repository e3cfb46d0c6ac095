// The language model of a turn. Chat Completions go through @ai-sdk/openai-compatible for any server
// other than OpenAI's own: it reads the `reasoning_content` / `reasoning` deltas that llama.cpp, vLLM,
// DeepSeek, Qwen and most compatible servers stream (@ai-sdk/openai drops them) and sends reasoning back
// as `reasoning_content` where the model's settings ask for it. OpenAI's own API keeps @ai-sdk/openai,
// which knows its quirks (max_completion_tokens for reasoning models). The Responses API is
// @ai-sdk/openai's, with a fetch that fills in what compatible servers leave out of its stream
// (responses-compat.ts). All are LanguageModelV3 providers, as is the offline demo model, so the loop
// treats them alike. A real provider's stream is watched for silence (idle-timeout.ts).

import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createDemoModel } from "../demo/demo-model";
import type { LlmSettings, OpenAiSettings } from "./config";
import { withIdleTimeout } from "./idle-timeout";
import { meteredModel } from "./metered-model";
import { responsesCompatFetch } from "./responses-compat";

export function languageModel(settings: LlmSettings): LanguageModelV3 {
  const model =
    settings.provider === "demo" ? createDemoModel() : withIdleTimeout(keptModel(settings), settings.streamIdleMs);
  // The operator's model under a quota: every call admitted and counted (metered-model.ts).
  return settings.meter ? meteredModel(model, settings.meter) : model;
}

/**
 * Provider models kept per isolate, by what sets them apart. @ai-sdk/openai-compatible builds its zod chunk
 * schema in the model's constructor, and a fresh schema's first parse cost every turn ~5 ms before its
 * first text under workerd (peer-bench, bench/README.md); a model is stateless between calls, so one per
 * fetch, provider, key and name serves every turn (the object keeps one guarded fetch per environment:
 * durable-objects/conversation/turn/turn-model.ts).
 */
const kept = new Map<string, LanguageModelV3>();
const MAX_KEPT = 64;
const fetchIds = new WeakMap<typeof fetch, number>();
let fetchCount = 0;

/** A number per fetch function, for the key (0: the runtime's own). */
function fetchId(f: typeof fetch | undefined): number {
  if (!f) return 0;
  const known = fetchIds.get(f);
  if (known !== undefined) return known;
  fetchCount++;
  fetchIds.set(f, fetchCount);
  return fetchCount;
}

function keptModel(s: OpenAiSettings): LanguageModelV3 {
  const key = JSON.stringify([fetchId(s.fetch), s.providerId, s.baseURL, s.apiKey, s.style, s.model]);
  const model = kept.get(key) ?? providerModel(s);
  // Re-inserted at the end: the map's order is then the least recently used first.
  kept.delete(key);
  kept.set(key, model);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return model;
}

/** OpenAI's own API: no base URL, or one on api.openai.com. */
export function isOpenAiItself(baseURL: string | undefined): boolean {
  if (!baseURL) return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

function providerModel(s: OpenAiSettings): LanguageModelV3 {
  const own = isOpenAiItself(s.baseURL);
  if (s.style === "responses" || own) {
    const fetch = s.style === "responses" && !own ? responsesCompatFetch(s.fetch ?? globalFetch) : s.fetch;
    const openai = createOpenAI({ apiKey: s.apiKey, baseURL: s.baseURL, fetch });
    return s.style === "responses" ? openai.responses(s.model) : openai.chat(s.model);
  }
  const compatible = createOpenAICompatible({
    name: "openai-compatible",
    apiKey: s.apiKey,
    baseURL: s.baseURL ?? "https://api.openai.com/v1",
    includeUsage: true,
    fetch: s.fetch,
  });
  return compatible.chatModel(s.model);
}

/** The runtime's fetch, looked up at each call (never a detached reference to it). */
const globalFetch: typeof fetch = (input, init) => fetch(input, init);
