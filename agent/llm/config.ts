// Which model answers a turn, with everything the loop needs to know of it. The operator's provider
// (`default`) comes from the environment: OpenAI-compatible when OPENAI_API_KEY is set, else the offline
// demo model. A user's own providers (Settings → Models, d1/providers.ts) give the same settings through
// providerLlm. Every model has a context window no request may exceed, an output cap sent with every
// request (so no answer runs to the end of the window unseen) and optional prices.
import {
  type ApiStyle,
  DEFAULT_PROVIDER_ID,
  MIN_CONTEXT_WINDOW,
  MIN_OUTPUT_TOKENS,
  type ModelInfo,
  type Prices,
  type ProviderModel,
} from "../../protocol";

import type { ErrorContext } from "./error-words";
import type { UsageMeter } from "./metered-model";

export type { ApiStyle };
export { MIN_CONTEXT_WINDOW };

interface Common {
  /** `default` (the operator's) or the id of one of the user's providers. */
  providerId: string;
  providerName: string;
  /** Tokens: no request to the model is larger (context/window.ts). */
  contextWindow: number;
  /** Tokens: the cap on one answer (max_tokens / max_output_tokens). */
  maxOutputTokens: number;
  prices?: Prices;
  /** Replay the model's reasoning with its earlier steps (protocol/models.ts `send_reasoning`). */
  sendReasoning: boolean;
  /** The model reads images: an attached image is an image part, else its name (docs/protocol.md "Files"). */
  imageInput: boolean;
  /** The operator's model counts against the user's quota (metered-model.ts); never a user's own provider. */
  meter?: UsageMeter;
}
export type OpenAiSettings = Common & {
  provider: "openai";
  model: string;
  apiKey: string;
  baseURL: string | undefined;
  style: ApiStyle;
  /** A stream that sends nothing for this long is given up on (idle-timeout.ts). */
  streamIdleMs: number;
  /** How requests leave the Worker; a user's provider goes through the outbound policy (outbound/policy.ts). */
  fetch?: typeof fetch;
};
export type LlmSettings = Common & ({ provider: "demo"; model: "demo" } | OpenAiSettings);

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
export const DEFAULT_STREAM_IDLE_SECONDS = 60;
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** The largest default output cap: a model's own limit is often lower, and the user can raise it. */
const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

/**
 * The output cap when none is set: a quarter of the window, at most 8,192 tokens. Enough for a long
 * answer, and a rambling model stops long before it fills the window.
 */
export const defaultMaxOutputTokens = (contextWindow: number) =>
  Math.max(MIN_OUTPUT_TOKENS, Math.min(DEFAULT_MAX_OUTPUT_TOKENS, Math.floor(contextWindow / 4)));

/** The operator's provider, from the environment (the one every user has). */
export function llmSettings(env: Env): LlmSettings {
  const window = contextWindow(env.OPENAI_CONTEXT_WINDOW);
  const common = {
    providerId: DEFAULT_PROVIDER_ID,
    contextWindow: window,
    maxOutputTokens: wholeTokens(env.OPENAI_MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS) ?? defaultMaxOutputTokens(window),
    prices: prices(env),
    sendReasoning: env.OPENAI_SEND_REASONING?.trim() === "true",
  };
  const apiKey = env.OPENAI_API_KEY?.trim();
  // The demo model "sees" an image as its name and size (agent/demo): it takes image parts like any.
  if (!apiKey) return { ...common, imageInput: true, providerName: "Demo", provider: "demo", model: "demo" };
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  return {
    ...common,
    imageInput: env.OPENAI_IMAGE_INPUT?.trim() === "true",
    providerName: env.OPENAI_PROVIDER_NAME?.trim() || hostName(baseURL) || "OpenAI",
    provider: "openai",
    model: env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    apiKey,
    baseURL,
    style: env.OPENAI_API_STYLE?.trim() === "responses" ? "responses" : "chat",
    streamIdleMs: streamIdleMs(env),
  };
}

/** Costs of the operator's model mean something only when the operator set its prices (OPENAI_PRICE_*). */
export const pricesConfigured = (env: Env): boolean => llmSettings(env).prices !== undefined;

/** One of a user's providers and one of its models (the key already opened). */
export interface UserProvider {
  id: string;
  name: string;
  baseUrl: string;
  style: ApiStyle;
  apiKey: string | undefined;
}

export function providerLlm(env: Env, provider: UserProvider, model: ProviderModel, fetch?: typeof globalThis.fetch) {
  const settings: OpenAiSettings = {
    providerId: provider.id,
    providerName: provider.name,
    provider: "openai",
    model: model.id,
    contextWindow: model.context_window,
    maxOutputTokens: model.max_output_tokens ?? defaultMaxOutputTokens(model.context_window),
    ...(model.prices ? { prices: model.prices } : {}),
    sendReasoning: model.send_reasoning ?? false,
    imageInput: model.image_input ?? false,
    // A server without keys (a local llama.cpp) still gets a bearer header: the providers require one.
    apiKey: provider.apiKey ?? "none",
    baseURL: provider.baseUrl,
    style: provider.style,
    streamIdleMs: streamIdleMs(env),
    ...(fetch ? { fetch } : {}),
  };
  return settings;
}

/** Whether users may add their own providers (USER_PROVIDERS=off turns it off). */
export const userProvidersAllowed = (env: Env) => !["off", "false", "0"].includes(env.USER_PROVIDERS?.trim() ?? "");

/** A variable's number; NaN when unset or blank (Number("") would be 0). */
const numberVar = (value: string | undefined) => Number(value?.trim() || Number.NaN);

const streamIdleMs = (env: Env) => positiveSeconds(env.OPENAI_STREAM_IDLE_SECONDS, DEFAULT_STREAM_IDLE_SECONDS) * 1000;

function hostName(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}

/** A number of seconds above zero (fractions allowed), else the default: a typo must not disable the timeout. */
function positiveSeconds(value: string | undefined, fallback: number): number {
  const seconds = numberVar(value);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** A whole number of tokens of at least `min`, else undefined. */
function wholeTokens(value: string | undefined, min: number): number | undefined {
  const tokens = numberVar(value);
  return Number.isInteger(tokens) && tokens > 0 ? Math.max(min, tokens) : undefined;
}

/** A whole number of tokens, at least MIN_CONTEXT_WINDOW; anything else is the default. */
const contextWindow = (value: string | undefined) => wholeTokens(value, MIN_CONTEXT_WINDOW) ?? DEFAULT_CONTEXT_WINDOW;

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

/** What /api/health, `hello` and an answer's `model` show: never the key. */
export const publicModelInfo = (s: LlmSettings): ModelInfo => ({
  provider: s.provider,
  model: s.model,
  context_window: s.contextWindow,
  ...(s.prices ? { prices: s.prices } : {}),
  provider_id: s.providerId,
  provider_name: s.providerName,
  max_output_tokens: s.maxOutputTokens,
});

/** Who a failed call's words name, and what they may advise (error-words.ts). */
export const errorContextOf = (s: LlmSettings): ErrorContext => ({
  providerName: s.providerName,
  operator: s.providerId === DEFAULT_PROVIDER_ID,
  ...(s.provider === "openai" ? { style: s.style, ...(s.baseURL ? { url: s.baseURL } : {}) } : {}),
});
