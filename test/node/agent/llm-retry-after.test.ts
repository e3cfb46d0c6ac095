// Reading how long a provider asked us to wait (retry-after.ts): seconds, an HTTP date, OpenAI's
// milliseconds; anything else is no answer, so the caller backs off on its own.
import { describe, expect, it } from "vitest";
import { retryAfterMs } from "../../../agent/llm/retry-after";

const NOW = Date.parse("2026-11-23T09:30:00.000Z");

describe("retryAfterMs", () => {
  it("reads Retry-After in seconds", () => {
    expect(retryAfterMs({ "retry-after": "2" }, NOW)).toBe(2000);
    expect(retryAfterMs({ "retry-after": " 0 " }, NOW)).toBe(0);
    expect(retryAfterMs({ "retry-after": "1.5" }, NOW)).toBe(1500);
  });

  it("reads Retry-After as an HTTP date, a past one as no wait", () => {
    expect(retryAfterMs({ "retry-after": "Mon, 23 Nov 2026 09:30:30 GMT" }, NOW)).toBe(30_000);
    expect(retryAfterMs({ "retry-after": "Monday, 23-Nov-26 09:31:00 GMT" }, NOW)).toBe(60_000);
    expect(retryAfterMs({ "retry-after": "Mon, 23 Nov 2026 09:00:00 GMT" }, NOW)).toBe(0);
  });

  it("prefers retry-after-ms, whatever the case of the names", () => {
    expect(retryAfterMs({ "retry-after-ms": "250", "retry-after": "3" }, NOW)).toBe(250);
    expect(retryAfterMs({ "Retry-After-Ms": "12.5" }, NOW)).toBe(12.5);
    expect(retryAfterMs({ "Retry-After": "4" }, NOW)).toBe(4000);
  });

  it("reads garbage as no answer", () => {
    for (const value of ["", "soon", "-1", "1e3", "0x10", "2 seconds", "Someday", "tomorrow 9:00"])
      expect(retryAfterMs({ "retry-after": value }, NOW), value).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "fast" }, NOW)).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "fast", "retry-after": "1" }, NOW)).toBe(1000);
    expect(retryAfterMs({}, NOW)).toBeUndefined();
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
  });
});
