// A connection that failed before any answer is retried like a 503: workerd reports it as a plain
// Error ("Network connection lost."), not as the AI SDK's retryable APICallError.
import { describe, expect, it } from "vitest";
import { FIRST_BACKOFF_MS, type ModelRetry, withRetries } from "../../../agent/llm/retry";

const options = (retries: ModelRetry[]) => ({
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
  onRetry: (r: ModelRetry) => retries.push(r),
});

describe("retrying a failed connection", () => {
  it("retries workerd's lost connection and reports each retry", async () => {
    const retries: ModelRetry[] = [];
    let calls = 0;
    const result = await withRetries(async () => {
      calls++;
      if (calls < 3) throw new Error("Network connection lost.");
      return "answered";
    }, options(retries));
    expect(result).toBe("answered");
    expect(retries.map((r) => [r.attempt, r.status, r.message])).toEqual([
      [1, undefined, "Network connection lost."],
      [2, undefined, "Network connection lost."],
    ]);
    expect(retries[0]?.waitMs).toBeGreaterThanOrEqual(FIRST_BACKOFF_MS);
  }, 10_000);

  it("does not retry an error that is not about the connection", async () => {
    const retries: ModelRetry[] = [];
    let calls = 0;
    await expect(
      withRetries(async () => {
        calls++;
        throw new Error("Unexpected token < in JSON");
      }, options(retries)),
    ).rejects.toThrow("Unexpected token");
    expect(calls).toBe(1);
    expect(retries).toEqual([]);
  });
});
