// The language model of a conversation: @ai-sdk/openai (Chat Completions by default, so any
// OpenAI-compatible server works; Responses API on request) or the offline demo model.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import type { LlmSettings } from "./config";
import { createDemoModel } from "./demo-model";

export function languageModel(settings: LlmSettings): LanguageModel {
  if (settings.provider === "demo") return createDemoModel();
  const openai = createOpenAI({ apiKey: settings.apiKey, baseURL: settings.baseURL });
  return settings.style === "responses" ? openai.responses(settings.model) : openai.chat(settings.model);
}
