// How free text becomes an FTS5 match (d1/fts-query.ts): each word once, at most MAX_SEARCH_WORDS of them.
import { describe, expect, it } from "vitest";
import { matchTerms, matchWords } from "../../d1/fts-query";
import { MAX_SEARCH_WORDS } from "../../protocol";

describe("search words", () => {
  it("takes each word once, whatever its case, and a prefix only where every spelling was one", () => {
    expect(matchTerms("budget Budget BUDGET budget")).toEqual(['"budget"']);
    expect(matchTerms("cat* cat dog* dog*")).toEqual(['"cat"', '"dog"*']);
    expect(matchTerms("x ".repeat(99))).toEqual(['"x"']);
  });

  it("keeps the first MAX_SEARCH_WORDS distinct words and ignores the rest", () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const terms = matchTerms(words.join(" "));
    expect(terms).toHaveLength(MAX_SEARCH_WORDS);
    expect(terms[0]).toBe('"w0"');
    expect(terms.at(-1)).toBe(`"w${MAX_SEARCH_WORDS - 1}"`);
    expect(matchWords(words.join(" "))).toEqual(words.slice(0, MAX_SEARCH_WORDS));
  });
});
