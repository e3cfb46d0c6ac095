// What one search provider is to outbound/web-search.ts: how its request is made and how its answer's
// results are read. The providers' files beside this one hold each API as its documentation and official
// client give it; what is shared (the timeout, HTTP statuses in words, the results' clean-up) is the entry's.
import { z } from "zod";

/** A snippet's characters at most. */
export const SNIPPET_MAX = 400;
/** A title's characters at most. */
export const TITLE_MAX = 200;

/** A result as the provider gives it, before clean-up (HTML, dates, URLs, duplicates). */
export interface ProviderResult {
  title?: string | null;
  url: string;
  snippet?: string;
  date?: string;
}

export interface SearchRequest {
  url: string;
  init: RequestInit;
}

export interface SearchAdapter {
  /** The API's base when none is configured; SearXNG has none (the operator's instance is its URL). */
  defaultBase?: string;
  /** The request for `count` results; `base` has no trailing slash, `key` is there when the provider needs one. */
  request(base: string, query: string, count: number, key: string | undefined): SearchRequest;
  /** The results of a 2xx answer's JSON; throws (a ZodError) when the JSON is not this API's answer. */
  results(body: unknown): ProviderResult[];
  /** A refused key the provider does not answer with 401 or 403 (Brave: 422 SUBSCRIPTION_TOKEN_INVALID). */
  refusesKey?(status: number, body: unknown): boolean;
}

/** An optional text field: whatever else is there (a number, an object) counts as absent. */
export const optionalText = z.string().nullish().catch(undefined);

/** The answer's list of results: an array, each element read apart so one odd result drops alone. */
export const resultList = z.array(z.unknown());

export function eachResult<T>(items: unknown[], schema: z.ZodType<T>, read: (item: T) => ProviderResult) {
  const out: ProviderResult[] = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (parsed.success) out.push(read(parsed.data));
  }
  return out;
}

/** `base` + `path`, with `query` as URL parameters. */
export function apiUrl(base: string, path: string, query?: Record<string, string>): string {
  const params = query ? `?${new URLSearchParams(query)}` : "";
  return `${base}${path}${params}`;
}

export const JSON_HEADERS = { Accept: "application/json", "Content-Type": "application/json" };
