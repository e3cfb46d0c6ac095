// Token estimates (agent/context/window.ts): non-ASCII byte counts are cached for the
// isolate, so the cache must stay small however many conversations pass through it.
import { describe, expect, it } from "vitest";
import { cachedTextChars, estimateTokens, MAX_CACHED_CHARS } from "../../agent/context/window";

describe("estimateTokens", () => {
  it("counts UTF-8 bytes, a token per 3", () => {
    expect(estimateTokens("abcdef")).toBe(2);
    expect(estimateTokens("ééé")).toBe(2); // 6 bytes
    expect(estimateTokens("日本語")).toBe(3); // 9 bytes
    expect(estimateTokens("😀")).toBe(2); // 4 bytes
  });

  it("keeps at most MAX_CACHED_CHARS characters of the texts it has counted, whatever their number", () => {
    // 300 tool results of 10,000 characters: three times the bound, far fewer entries than any count cap.
    for (let i = 0; i < 300; i++) {
      const text = `résultat ${i} ${"ü".repeat(10_000)}`;
      expect(estimateTokens(text)).toBe(Math.ceil(new TextEncoder().encode(text).length / 3));
      expect(cachedTextChars()).toBeLessThanOrEqual(MAX_CACHED_CHARS);
    }
    expect(cachedTextChars()).toBeGreaterThan(0);
    // A text longer than the whole bound is counted, never kept.
    const huge = "é".repeat(MAX_CACHED_CHARS + 1);
    expect(estimateTokens(huge)).toBe(Math.ceil((2 * (MAX_CACHED_CHARS + 1)) / 3));
    expect(cachedTextChars()).toBeLessThanOrEqual(MAX_CACHED_CHARS);
  });
});
