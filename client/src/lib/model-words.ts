// A model in words, wherever the chat names one: who wrote an answer ("gpt-4o-mini (OpenRouter)", "the
// offline demo model") and how much it reads at once ("128k context").
import type { ModelInfo } from "../../../protocol";

export function modelWords(model: ModelInfo): string {
  if (model.provider === "demo") return "the offline demo model";
  const provider = model.provider_name ?? model.provider;
  return provider ? `${model.model} (${provider})` : model.model;
}

/** "128k context", "1.5M context": a context window as the picker and the usage panel say it. */
export function windowWords(tokens: number): string {
  return tokens >= 1_000_000
    ? `${Number((tokens / 1_000_000).toFixed(1))}M context`
    : `${Math.round(tokens / 1000)}k context`;
}
