// Which model answers: OpenAI-compatible when OPENAI_API_KEY is set, else the offline demo model.
// Both have a context window (OPENAI_CONTEXT_WINDOW) that no request may exceed, and optional prices.
import type { ModelInfo, Prices } from "../../protocol";

export type ApiStyle = "chat" | "responses";
interface Common {
  /** Tokens: no request to the model is larger (context/window.ts). */
  contextWindow: number;
  prices?: Prices;
}
export type LlmSettings = Common &
  (
    | { provider: "demo"; model: "demo" }
    | {
        provider: "openai";
        model: string;
        apiKey: string;
        baseURL: string | undefined;
        style: ApiStyle;
        /** A stream that sends nothing for this long is given up on (idle-timeout.ts). */
        streamIdleMs: number;
      }
  );

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
export const DEFAULT_STREAM_IDLE_SECONDS = 60;
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** Below this no conversation fits (system prompt, tool declarations, a summary and a message). */
export const MIN_CONTEXT_WINDOW = 4_000;

export function llmSettings(env: Env): LlmSettings {
  const common: Common = { contextWindow: contextWindow(env.OPENAI_CONTEXT_WINDOW), prices: prices(env) };
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return { ...common, provider: "demo", model: "demo" };
  return {
    ...common,
    provider: "openai",
    model: env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    apiKey,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    style: env.OPENAI_API_STYLE?.trim() === "responses" ? "responses" : "chat",
    streamIdleMs: positiveSeconds(env.OPENAI_STREAM_IDLE_SECONDS, DEFAULT_STREAM_IDLE_SECONDS) * 1000,
  };
}

/** A variable's number; NaN when unset or blank (Number("") would be 0). */
const numberVar = (value: string | undefined) => Number(value?.trim() || Number.NaN);

/** A number of seconds above zero (fractions allowed), else the default: a typo must not disable the timeout. */
function positiveSeconds(value: string | undefined, fallback: number): number {
  const seconds = numberVar(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** A whole number of tokens, at least MIN_CONTEXT_WINDOW; anything else is the default. */
function contextWindow(value: string | undefined): number {
  const tokens = numberVar(value);
  return Number.isInteger(tokens) && tokens > 0 ? Math.max(MIN_CONTEXT_WINDOW, tokens) : DEFAULT_CONTEXT_WINDOW;
}

/** The three OPENAI_PRICE_* (per million tokens), or none: a cost shown from half the prices would mislead. */
function prices(env: Env): Prices | undefined {
  const read = (v: string | undefined) => {
    const n = numberVar(v);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const input = read(env.OPENAI_PRICE_INPUT);
  const output = read(env.OPENAI_PRICE_OUTPUT);
  if (input === undefined || output === undefined) return undefined;
  // Without a cached price, cached input costs what input costs (what a provider without a cache charges).
  return { input, cached_input: read(env.OPENAI_PRICE_CACHED_INPUT) ?? input, output };
}

/** What /api/health and `hello` show: never the key. */
export const publicModelInfo = (s: LlmSettings): ModelInfo => ({
  provider: s.provider,
  model: s.model,
  context_window: s.contextWindow,
  ...(s.prices ? { prices: s.prices } : {}),
});
