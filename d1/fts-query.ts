// Turns free text from the model or a user into an FTS5 MATCH expression that cannot be a syntax
// error: every term is quoted, so `AND`, `(`, `NEAR`, `-` and `:` are plain words. A trailing `*`
// is kept as a prefix search because it is the one operator a searcher clearly means.
import { MAX_SEARCH_WORDS } from "../protocol";

/**
 * The searchable words of the text, each with whether it ends in a prefix `*`: each word once (a repeat
 * adds nothing to an AND), and only the first MAX_SEARCH_WORDS, since each word becomes a term and a
 * bound parameter and SQLite limits both (97 words answered 500: "Expression tree is too large").
 */
function words(text: string): { word: string; prefix: boolean }[] {
  const seen = new Map<string, { word: string; prefix: boolean }>();
  for (const raw of text.split(/\s+/)) {
    // Quotes and stars never tokenize (unicode61 treats them as separators), so dropping them loses nothing.
    const word = raw.replace(/["*]/g, "");
    if (!/[\p{L}\p{N}]/u.test(word)) continue;
    const prefix = /[^*]\*+$/.test(raw);
    const key = word.toLowerCase();
    const earlier = seen.get(key);
    // "cat cat*" needs "cat" itself: a prefix term is kept only when every spelling was one.
    if (earlier) earlier.prefix &&= prefix;
    else if (seen.size < MAX_SEARCH_WORDS) seen.set(key, { word, prefix });
  }
  return [...seen.values()];
}

/** The words a match is made of, unquoted (for matching them elsewhere, such as in titles). */
export const matchWords = (text: string): string[] => words(text).map((w) => w.word);

/** Quoted terms, or an empty list when nothing in the text could match a token. */
export function matchTerms(text: string): string[] {
  return words(text).map(({ word, prefix }) => `"${word}"${prefix ? "*" : ""}`);
}

/** All terms must match (FTS5's implicit AND) or, for the broader retry, any of them. */
export const matchAll = (terms: string[]) => terms.join(" ");
export const matchAny = (terms: string[]) => terms.join(" OR ");

/** The whole text as one phrase: the fallback when the term query is still refused. */
export const matchPhrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** D1 reports FTS5 problems as plain errors; only these are the query's fault, not the database's. */
export const isFtsQueryError = (err: unknown) =>
  err instanceof Error && /fts5|syntax error|unterminated string|malformed MATCH|no such column/i.test(err.message);

/**
 * Around each hit in a search snippet (notes and conversations alike): characters markdown gives no
 * meaning, so a snippet rendered as markdown, or read by the model, never collides with `**bold**`.
 */
export const HIGHLIGHT = { open: "«", close: "»" } as const;
