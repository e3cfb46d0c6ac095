// How a notification's structured data is written for the model (seed 000 FR-013, FR-015, SC-002).
// TOON wins on uniform batches (one tabular header, then CSV-like rows) but is no smaller than compact
// JSON for a single flat event and can be larger for nested or irregular data, so each notification
// takes whichever of the two is cheaper. The Worker cannot ship a real tokenizer (o200k tables are
// ~1 MB), so the choice uses `estimateTokens`, a table-free imitation of o200k's pre-tokenizer;
// bench/notification-tokens.ts checks it against the real tokenizer. No relative imports here, so
// Node can load this file directly from the bench.
import { encode } from "@toon-format/toon";

export type DataFormat = "toon" | "json";

/**
 * The chunks o200k's pre-tokenizer cuts text into, simplified: a letter run with at most one leading
 * non-letter (" note", "_read", ",error"), digits in groups of up to three, a punctuation run with an
 * optional leading space and trailing newlines ("\":\"", "},{\"", ":\n"), and whitespace. BPE never
 * merges across chunks and rarely splits one, so counting chunks is most of the estimate.
 */
const CHUNK = /[^\r\n\p{L}\p{N}]?([\p{L}\p{M}]+)|(\p{N}{1,3})| ?([^\s\p{L}\p{N}]+)([\r\n]*)|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

/** Letters per token: common words and most identifier parts ("vault", "_search") are one token. */
const LETTERS_PER_TOKEN = 10;
/** Symbols per token: BPE holds common runs such as `":"`, `","`, `},{"` as single tokens. */
const SYMBOLS_PER_TOKEN = 3;

/**
 * A cheap, deterministic estimate of the o200k token count of `text`, without the tokenizer's tables.
 * It only has to rank two encodings of the same data, which share their values, so it is tuned on the
 * structure where they differ (bench/notification-tokens.ts measures the agreement). A punctuation
 * run that ends a line costs one more: BPE often splits it (`}` `:\n`), and the overestimate makes
 * near-ties go to compact JSON, the safe side of "never more tokens than compact JSON".
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [, word, , symbols, newlines] of text.matchAll(CHUNK)) {
    if (word) tokens += Math.ceil(word.length / LETTERS_PER_TOKEN);
    else if (symbols) tokens += Math.ceil(symbols.length / SYMBOLS_PER_TOKEN) + (newlines ? 1 : 0);
    else tokens += 1; // a digit group or a whitespace run
  }
  return tokens;
}

/**
 * Encodes a notification's data as TOON or compact JSON, whichever `estimateTokens` rates cheaper
 * (TOON on a tie; JSON if TOON cannot encode it). The data is first normalised through JSON so both
 * encodings describe the same value (undefined fields dropped, dates as ISO strings, NaN as null).
 */
export function encodeData(data: unknown): { format: DataFormat; text: string } {
  const json = JSON.stringify(data) ?? "null";
  let toon: string;
  try {
    toon = encode(JSON.parse(json));
  } catch {
    return { format: "json", text: json };
  }
  return estimateTokens(toon) <= estimateTokens(json) ? { format: "toon", text: toon } : { format: "json", text: json };
}
