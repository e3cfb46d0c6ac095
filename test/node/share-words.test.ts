// The share UI's words (client/src/lib/shares.ts): what a link includes, its absolute address, and a
// refused request said so a person can act on it; a 429 says when to try again, from the Retry-After
// that client/src/lib/api.ts keeps on the error.
import { afterEach, expect, it, vi } from "vitest";
import { requestJson } from "../../client/src/lib/api.ts";
import { explainShareError, shareAddress, shareIncludes } from "../../client/src/lib/shares.ts";
import { ShareSchema } from "../../protocol/index.ts";

afterEach(() => vi.unstubAllGlobals());

const refusal = (status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code: status === 429 ? "rate_limited" : "not_found", message: "no" } }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

it("says what a link shows besides the messages", () => {
  expect(shareIncludes({ include_system: false, include_tools: false })).toBe("Messages only");
  expect(shareIncludes({ include_system: true, include_tools: false })).toBe("With system messages");
  expect(shareIncludes({ include_system: false, include_tools: true })).toBe("With tool details");
  expect(shareIncludes({ include_system: true, include_tools: true })).toBe("With system messages and tool details");
});

it("makes the link absolute on this origin", () => {
  vi.stubGlobal("location", new URL("https://oracle.example/c/abc"));
  expect(shareAddress({ url: "/s/AAAAbbbbCCCCddddEEEEffff" })).toBe(
    "https://oracle.example/s/AAAAbbbbCCCCddddEEEEffff",
  );
});

it("tells a rate-limited user when to try again, from Retry-After", async () => {
  vi.stubGlobal("fetch", async () => refusal(429, { "retry-after": "1800" }));
  const result = await requestJson("/api/conversations/x/shares", ShareSchema, "POST", {});
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.retryAfterSeconds).toBe(1800);
  expect(explainShareError(result.error, "create the link")).toBe(
    "Could not create the link: too many at once. Try again in 30 minutes.",
  );
  // Without the header: "later", never a made-up time.
  vi.stubGlobal("fetch", async () => refusal(429));
  const bare = await requestJson("/api/conversations/x/shares", ShareSchema, "POST", {});
  if (bare.ok) throw new Error("expected a refusal");
  expect(bare.error.retryAfterSeconds).toBeUndefined();
  expect(explainShareError(bare.error, "create the link")).toBe(
    "Could not create the link: too many at once. Try again later.",
  );
});

it("says a missing link is gone", async () => {
  vi.stubGlobal("fetch", async () => refusal(404));
  const result = await requestJson("/api/shares/x", ShareSchema);
  if (result.ok) throw new Error("expected a refusal");
  expect(explainShareError(result.error, "revoke the link")).toBe("Could not revoke the link: it no longer exists.");
});
