// The language model of a conversation: @ai-sdk/openai (Chat Completions by default, so any
// OpenAI-compatible server works; Responses API on request) or the offline demo model. Both are
// LanguageModelV3 providers, so the loop treats them alike. The real provider's stream is watched for
// silence (idle-timeout.ts); the demo model runs in the object itself and cannot stall.

import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { LlmSettings } from "./config";
import { createDemoModel } from "./demo-model";
import { withIdleTimeout } from "./idle-timeout";

export function languageModel(settings: LlmSettings): LanguageModelV3 {
  if (settings.provider === "demo") return createDemoModel();
  const openai = createOpenAI({ apiKey: settings.apiKey, baseURL: settings.baseURL });
  const model = settings.style === "responses" ? openai.responses(settings.model) : openai.chat(settings.model);
  return withIdleTimeout(model, settings.streamIdleMs);
}
