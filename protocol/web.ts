// The web tools' contract (docs/protocol.md "The web"): a source the agent used and cites by number, the
// search providers, and a user's web settings. Shared by the Worker, the object and the client.
import { z } from "zod";

/**
 * A page the agent found (web_search) or read (web_fetch). `n` is the page's number in its conversation:
 * given once per URL, from 1, kept for the conversation's life, so a `[n]` in any answer names one page.
 */
export const WebSourceSchema = z.object({
  n: z.number().int().positive(),
  url: z.string(),
  title: z.string(),
  /** The site's name as people say it: the host without `www.` ("en.wikipedia.org"). */
  site: z.string(),
});
export type WebSource = z.infer<typeof WebSourceSchema>;

/** At most this many sources on one answer (its `sources`). */
export const MAX_ANSWER_SOURCES = 50;

export const SEARCH_PROVIDERS = ["searxng", "brave", "tavily", "exa"] as const;
export const SearchProviderSchema = z.enum(SEARCH_PROVIDERS);
export type SearchProvider = z.infer<typeof SearchProviderSchema>;

/** How people name each provider (Settings, errors). */
export const SEARCH_PROVIDER_NAMES: Record<SearchProvider, string> = {
  searxng: "SearXNG",
  brave: "Brave Search",
  tavily: "Tavily",
  exa: "Exa",
};

/** A provider that needs a key; SearXNG needs a URL (its instance) instead. */
export const providerNeedsKey = (provider: SearchProvider) => provider !== "searxng";

/** What one search result gives the model and the chat. */
export const WebSearchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  /** When the page was published, as the provider says it (ISO date where it gives one). */
  date: z.string().optional(),
});
export type WebSearchResult = z.infer<typeof WebSearchResultSchema>;

const MAX_SEARCH_KEY = 500;

/**
 * `GET /api/settings/web`: the user's switches, their own search provider (if any: its key is never
 * sent back, only whether one is saved), and what the operator offers.
 */
export const WebSettingsSchema = z.object({
  /** The agent may read pages (web_fetch). */
  fetch: z.boolean(),
  /** The agent may search (web_search). */
  search: z.boolean(),
  /** The user's own provider, used instead of the operator's; null: the operator's. */
  search_provider: SearchProviderSchema.nullable(),
  /** The user's SearXNG instance (or a provider's API base), if set. */
  search_url: z.string().nullable(),
  search_key_set: z.boolean(),
  operator: z.object({
    /** The operator lets agents read pages at all (WEB_FETCH is not "off"). */
    fetch: z.boolean(),
    /** The operator's provider (SEARCH_PROVIDER), null when there is none. */
    search_provider: SearchProviderSchema.nullable(),
  }),
});
export type WebSettings = z.infer<typeof WebSettingsSchema>;

/** `PUT /api/settings/web`: any subset; `null` forgets the user's provider, URL or key. */
export const WebSettingsPatchSchema = z.strictObject({
  fetch: z.boolean().optional(),
  search: z.boolean().optional(),
  search_provider: SearchProviderSchema.nullable().optional(),
  search_url: z.string().trim().max(2000, "at most 2,000 characters").nullable().optional(),
  search_key: z
    .string()
    .trim()
    .min(1, "the key is empty")
    .max(MAX_SEARCH_KEY, "at most 500 characters")
    .nullable()
    .optional(),
});
export type WebSettingsPatch = z.infer<typeof WebSettingsPatchSchema>;

/** The site's name of a URL: its host without a leading `www.`. */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/**
 * The source numbers an answer cites, in the order first cited: `[3]`, `[1][2]` and `[1, 2]`, not a
 * link's `[text](url)`, a footnote's `[^1]`, or anything inside code.
 */
export function citedNumbers(text: string): number[] {
  const seen = new Set<number>();
  for (const group of citationGroups(text)) for (const n of group.numbers) seen.add(n);
  return [...seen];
}

export interface CitationGroup {
  /** Where `[…]` starts and ends in the text. */
  start: number;
  end: number;
  numbers: number[];
}

/** Code (fenced blocks and inline spans) is blanked out so nothing in it reads as a citation. */
const CODE = /```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`/g;
/** `[1]`, `[1, 2]`: not a link's text `[1](…)` nor a reference definition `[1]: …`. */
const CITATION = /\[(\d{1,4}(?:\s*,\s*\d{1,4}){0,9})\](?![(:])/g;

/** Every `[n]` or `[n, m]` group of a text, outside code. */
export function citationGroups(text: string): CitationGroup[] {
  const blanked = text.replace(CODE, (code) => " ".repeat(code.length));
  const groups: CitationGroup[] = [];
  for (const match of blanked.matchAll(CITATION)) {
    const numbers = (match[1] ?? "").split(",").map((n) => Number(n.trim()));
    if (numbers.some((n) => n < 1)) continue;
    groups.push({ start: match.index, end: match.index + match[0].length, numbers });
  }
  return groups;
}
