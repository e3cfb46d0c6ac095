// A question's deadline reads in words (client/src/lib/time-left.ts), not as "(299 s left)".
import { describe, expect, it } from "vitest";
import { durationInWords, timeLeftInWords } from "../../client/src/lib/time-left";

describe("timeLeftInWords", () => {
  it("says minutes roughly, and seconds only in the last minute", () => {
    expect(timeLeftInWords(299)).toBe("about 5 minutes left");
    expect(timeLeftInWords(300)).toBe("5 minutes left");
    expect(timeLeftInWords(150)).toBe("about 3 minutes left");
    expect(timeLeftInWords(89)).toBe("about a minute left");
    expect(timeLeftInWords(60)).toBe("1 minute left");
    expect(timeLeftInWords(45)).toBe("45 seconds left");
    expect(timeLeftInWords(1)).toBe("1 second left");
    expect(timeLeftInWords(0)).toBe("no time left");
    expect(timeLeftInWords(-3)).toBe("no time left");
  });

  it("says hours for long waits, and never a bare count of seconds", () => {
    expect(timeLeftInWords(2 * 3600)).toBe("2 hours left");
    expect(timeLeftInWords(2 * 3600 + 600)).toBe("about 2 hours left");
    for (let s = 0; s < 10_000; s += 7) expect(timeLeftInWords(s)).not.toMatch(/\d+\s*s\b/);
  });

  it("names a timeout's length the same way", () => {
    expect(durationInWords(300)).toBe("5 minutes");
    expect(durationInWords(30)).toBe("30 seconds");
  });
});
