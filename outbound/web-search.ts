// The web_search tool's providers (docs/protocol.md "The web"): which one the operator set (SEARCH_PROVIDER,
// SEARCH_URL, SEARCH_API_KEY; a user's own, from Settings, has the same shape), one search through it with
// the fetch it is given (the guarded one: outbound/policy.ts), and the results cleaned up alike whichever
// provider answered: plain text, capped, http(s) URLs only, each URL once, dates as YYYY-MM-DD. A failure
// is a WebSearchError whose message is for the model to read. Each API is in outbound/web-search/.
import { deadline } from "../core/deadline";
import {
  providerNeedsKey,
  SEARCH_PROVIDER_NAMES,
  SEARCH_PROVIDERS,
  type SearchProvider,
  type WebSearchResult,
} from "../protocol/web";
import { fetchCause, OutboundRefused, secondsText } from "./policy";
import { type ProviderResult, type SearchAdapter, SNIPPET_MAX, TITLE_MAX } from "./web-search/adapter";
import { brave } from "./web-search/brave";
import { exa } from "./web-search/exa";
import { searxng } from "./web-search/searxng";
import { tavily } from "./web-search/tavily";
import { capText, dayOf, plainText } from "./web-search/text";

export interface SearchConfig {
  provider: SearchProvider;
  /** SearXNG: the instance's base URL (required). Others: a base replacing the API's (a proxy, a test's fake). */
  url?: string;
  /** Brave, Tavily and Exa: the API key (required). */
  key?: string;
}

export type WebSearchFailure = "unauthorized" | "rate_limited" | "timeout" | "unavailable" | "bad_response";

export class WebSearchError extends Error {
  override name = "WebSearchError";
  constructor(
    readonly reason: WebSearchFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SearchOptions {
  /** How many results at most, 1–10. */
  count: number;
  /** The caller's (the tool call's): aborting it rejects with its reason, not a WebSearchError. */
  signal?: AbortSignal;
  /** The guarded fetch: every request goes through it. */
  fetch: typeof fetch;
  /** How long the provider has to answer, body included (default 10 s). */
  timeoutMs?: number;
}

export const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;
export const MAX_SEARCH_COUNT = 10;

const ADAPTERS: Record<SearchProvider, SearchAdapter> = { searxng, brave, tavily, exa };

const isProvider = (name: string): name is SearchProvider => (SEARCH_PROVIDERS as readonly string[]).includes(name);

/** An http(s) URL without credentials, or undefined. */
function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value.trim());
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operator's provider from its variables: undefined when SEARCH_PROVIDER is unset, an error in words
 * when a setting is wrong or missing (the caller logs it and offers no search).
 */
export function searchConfigFromEnv(env: {
  SEARCH_PROVIDER?: string;
  SEARCH_URL?: string;
  SEARCH_API_KEY?: string;
}): SearchConfig | { error: string } | undefined {
  const name = env.SEARCH_PROVIDER?.trim().toLowerCase();
  if (!name) return undefined;
  if (!isProvider(name))
    return { error: `SEARCH_PROVIDER=${env.SEARCH_PROVIDER?.trim()} is not one of ${SEARCH_PROVIDERS.join(", ")}` };
  const url = env.SEARCH_URL?.trim() || undefined;
  const key = env.SEARCH_API_KEY?.trim() || undefined;
  if (url && !httpUrl(url)) return { error: `SEARCH_URL=${url} is not an http(s) URL` };
  if (name === "searxng" && !url)
    return { error: "SEARCH_PROVIDER=searxng needs SEARCH_URL (the instance's base URL, https://…)" };
  if (providerNeedsKey(name) && !key) return { error: `SEARCH_PROVIDER=${name} needs SEARCH_API_KEY` };
  return { provider: name, ...(url ? { url } : {}), ...(providerNeedsKey(name) && key ? { key } : {}) };
}

/** A base URL as the adapters join paths to it: no query, no fragment, no trailing slash. */
function baseOf(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** Searches with the configured provider: at most `count` results, cleaned up; a WebSearchError on failure. */
export async function searchWeb(
  config: SearchConfig,
  query: string,
  options: SearchOptions,
): Promise<WebSearchResult[]> {
  const adapter = ADAPTERS[config.provider];
  const name = SEARCH_PROVIDER_NAMES[config.provider];
  const given = config.url?.trim() || adapter.defaultBase;
  const base = given ? httpUrl(given) : undefined;
  if (!base)
    throw new WebSearchError(
      "unavailable",
      given ? `${name}'s URL ${given} is not an http(s) URL` : `${name} needs its instance's URL`,
    );
  if (providerNeedsKey(config.provider) && !config.key?.trim())
    throw new WebSearchError("unauthorized", `${name} needs an API key`);
  const call: Call = {
    // Where it was sent, when that is not the provider's own API: a SearXNG instance, a proxy.
    where: config.url?.trim() ? `${name} at ${baseOf(base)}` : name,
    provider: config.provider,
    adapter,
    key: config.key?.trim(),
  };
  const count = Math.min(MAX_SEARCH_COUNT, Math.max(1, Math.floor(options.count) || 1));
  const request = adapter.request(baseOf(base), query, count, call.key);
  const body = await exchange(call, request.url, request.init, options);
  let results: ProviderResult[];
  try {
    results = adapter.results(body);
  } catch {
    throw notResults(call, JSON.stringify(body));
  }
  return cleaned(results, count);
}

interface Call {
  where: string;
  provider: SearchProvider;
  adapter: SearchAdapter;
  key: string | undefined;
}

/** The request made under the deadline (body read included): a 2xx answer's JSON, or a WebSearchError. */
async function exchange(call: Call, url: string, init: RequestInit, options: SearchOptions): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const limit = deadline(timeoutMs, "the search took too long", options.signal);
  try {
    const response = await options.fetch(url, { ...init, signal: limit.signal });
    const text = await response.text();
    if (!response.ok) throw refusal(call, response, text);
    try {
      return JSON.parse(text);
    } catch {
      throw notResults(call, text);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    if (error instanceof WebSearchError) throw error;
    if (limit.expired)
      throw new WebSearchError("timeout", `${call.where} did not answer within ${secondsText(timeoutMs)}`);
    if (error instanceof OutboundRefused)
      throw new WebSearchError("unavailable", `${call.where} cannot be reached: ${redacted(call, error.message)}`);
    throw new WebSearchError(
      "unavailable",
      `${call.where} could not be reached (${redacted(call, fetchCause(error))})`,
    );
  } finally {
    limit.clear();
  }
}

/** The key never appears in what the model reads, even where a provider echoes it. */
function redacted(call: Call, text: string): string {
  return call.key ? text.split(call.key).join("…") : text;
}

/** A short look at a body that is not what was asked for, as one line of text. */
function glimpse(call: Call, text: string): string {
  return redacted(call, capText(plainText(text.slice(0, 2000), 2000), 120)) || "an empty body";
}

const SEARXNG_JSON_HINT = "is its JSON format enabled? `search.formats: [html, json]` in settings.yml";

function notResults(call: Call, text: string): WebSearchError {
  const hint = call.provider === "searxng" ? ` (${SEARXNG_JSON_HINT})` : "";
  return new WebSearchError(
    "bad_response",
    `${call.where} answered something that is not search results: ${glimpse(call, text)}${hint}`,
  );
}

/** The provider's own words for an error, where its body has short ones (Brave, Tavily, Exa). */
function detailOf(call: Call, body: unknown, text: string): string | undefined {
  const b = body as {
    error?: string | { detail?: unknown; message?: unknown };
    detail?: string | { error?: unknown };
    message?: unknown;
  } | null;
  const candidates = [
    typeof b?.error === "object" ? b.error.detail : undefined,
    typeof b?.error === "object" ? b.error.message : undefined,
    typeof b?.detail === "object" ? b.detail?.error : b?.detail,
    b?.error,
    b?.message,
  ];
  const words = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  if (words) return redacted(call, capText(plainText(words, 500), 160));
  // A short plain-text body says something; an HTML page says nothing useful.
  const plain = text.trim();
  return plain && plain.length <= 160 && !plain.startsWith("<") ? redacted(call, plainText(plain, 160)) : undefined;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A non-2xx answer in words, with the reason the model and the tests go by. */
function refusal(call: Call, response: Response, text: string): WebSearchError {
  const { status } = response;
  const { where } = call;
  const body = parsed(text);
  const detail = detailOf(call, body, text);
  const http = `HTTP ${status}${detail ? `: ${detail}` : ""}`;
  if (status >= 300 && status < 400) {
    const location = response.headers.get("location");
    return new WebSearchError(
      "bad_response",
      `${where} answered with a redirect (HTTP ${status}${location ? ` to ${redacted(call, location)}` : ""}), which is not followed; set the URL it leads to`,
    );
  }
  if (call.provider === "searxng" && status === 403)
    return new WebSearchError("bad_response", `${where} refused to answer in JSON (HTTP 403): ${SEARXNG_JSON_HINT}`);
  if (status === 401 || status === 403 || call.adapter.refusesKey?.(status, body))
    return new WebSearchError(
      "unauthorized",
      call.key ? `${where} refused the API key (${http})` : `${where} refused the request (${http})`,
    );
  if (status === 429) {
    const retry = Number(response.headers.get("retry-after"));
    const when = Number.isFinite(retry) && retry > 0 ? `in ${Math.ceil(retry)} s` : "later";
    return new WebSearchError("rate_limited", `${where} is rate limiting searches (HTTP 429); try again ${when}`);
  }
  // Exa's 402 (no credits left), Tavily's 432 and 433 (the plan's, the pay-as-you-go limit).
  if (status === 402 || status === 432 || status === 433)
    return new WebSearchError(
      "rate_limited",
      `${where} refused the search: the account's credits or usage limit are used up (${http})`,
    );
  if (status >= 500 || status === 408)
    return new WebSearchError("unavailable", `${where} is not working right now (${http}); try again later`);
  return new WebSearchError("bad_response", `${where} did not take the search (${http})`);
}

/** The results as the model gets them: http(s) URLs only, each once, plain capped text, at most `count`. */
function cleaned(results: ProviderResult[], count: number): WebSearchResult[] {
  const seen = new Set<string>();
  const out: WebSearchResult[] = [];
  for (const result of results) {
    if (out.length >= count) break;
    const url = httpUrl(result.url);
    if (!url) continue;
    const same = url.href.replace(/#.*$/, "");
    if (seen.has(same)) continue;
    seen.add(same);
    const date = dayOf(result.date);
    out.push({
      title: plainText(result.title ?? "", TITLE_MAX) || url.hostname.replace(/^www\./, ""),
      url: url.href,
      snippet: plainText(result.snippet ?? "", SNIPPET_MAX),
      ...(date ? { date } : {}),
    });
  }
  return out;
}
