// The OAuth decisions without the network (mcp/oauth-rules.ts): when a token is refreshed, what a stored
// token response becomes, and which callback states are refused (unknown, foreign, expired, wrong).
import { describe, expect, it } from "vitest";
import {
  needsRefresh,
  newState,
  PENDING_TTL_MS,
  pendingRefusal,
  REFRESH_MARGIN_MS,
  sameSecret,
  serverOfState,
  toStoredTokens,
} from "../../mcp/oauth-rules";

const ID = "7731607c-2d97-40eb-a5c3-9efeb059c1c1";

describe("token expiry", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const at = (ms: number) => ({ expires_at: new Date(now + ms).toISOString() });
  it("refreshes within the margin or past the expiry, not before", () => {
    expect(needsRefresh(at(REFRESH_MARGIN_MS + 1_000), now)).toBe(false);
    expect(needsRefresh(at(REFRESH_MARGIN_MS), now)).toBe(true);
    expect(needsRefresh(at(30_000), now)).toBe(true);
    expect(needsRefresh(at(-1_000), now)).toBe(true);
  });
  it("never refreshes a token without an expiry, and always one with a broken one", () => {
    expect(needsRefresh({ expires_at: null }, now)).toBe(false);
    expect(needsRefresh({ expires_at: "soon" }, now)).toBe(true);
  });
  it("stores expires_in as an absolute time and keeps only what it needs", () => {
    const stored = toStoredTokens({ access_token: "a", token_type: "Bearer", expires_in: 3600, scope: "tools" }, now);
    expect(stored).toEqual({
      access_token: "a",
      token_type: "Bearer",
      expires_at: "2026-11-26T13:00:00.000Z",
      scope: "tools",
    });
    expect(toStoredTokens({ access_token: "a", token_type: "Bearer" }, now).expires_at).toBeNull();
  });
});

describe("callback state", () => {
  it("names its server and carries 256 random bits", () => {
    const a = newState(ID);
    expect(serverOfState(a)).toBe(ID);
    expect(a).not.toBe(newState(ID));
    expect(serverOfState("nonsense")).toBeUndefined();
    expect(serverOfState(`${ID}.short`)).toBeUndefined();
    expect(serverOfState(`../${ID}.${"A".repeat(43)}`)).toBeUndefined();
  });
  it("is refused when nothing is pending, when it differs, or once it expired", () => {
    const now = Date.now();
    const state = newState(ID);
    const pending = {
      state,
      verifier: "v",
      redirect_uri: "https://oracle.example/api/mcp-servers/oauth/callback",
      expires_at: new Date(now + PENDING_TTL_MS).toISOString(),
    };
    expect(pendingRefusal(undefined, state, now)).toBe("no_pending");
    expect(pendingRefusal(pending, newState(ID), now)).toBe("mismatch");
    expect(pendingRefusal(pending, state, now + PENDING_TTL_MS + 1)).toBe("expired");
    expect(pendingRefusal(pending, state, now)).toBeUndefined();
  });
  it("compares whole values", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("abc", "ab")).toBe(false);
  });
});
