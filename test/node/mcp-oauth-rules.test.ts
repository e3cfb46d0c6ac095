// The OAuth decisions without the network (mcp/oauth-rules.ts): when a token is refreshed, what a stored
// token response becomes (and which values are too large to keep), which callback states are refused
// (unknown, foreign, expired, wrong), which scopes a step-up asks for, and which sign-in URLs the
// browser may be sent to (protocol/mcp.ts, checked by the Worker and again by the client).
import { describe, expect, it } from "vitest";
import {
  MAX_TOKEN_CHARS,
  missingScopes,
  needsRefresh,
  newState,
  OAuthTooLarge,
  PENDING_TTL_MS,
  pendingRefusal,
  REFRESH_MARGIN_MS,
  sameSecret,
  scopeUnion,
  serverOfState,
  toStoredTokens,
} from "../../mcp/oauth-rules";
import { isLoopbackHost, openableUrl } from "../../protocol";

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
  it("takes the scope asked for as granted when the answer names none (RFC 6749 §5.1)", () => {
    expect(toStoredTokens({ access_token: "a", token_type: "Bearer" }, now, "tools").scope).toBe("tools");
    expect(toStoredTokens({ access_token: "a", token_type: "Bearer", scope: "read" }, now, "tools").scope).toBe("read");
  });
  it("refuses a token or scope over its limit in words, before anything is stored", () => {
    const huge = "t".repeat(1024 * 1024);
    expect(() => toStoredTokens({ access_token: huge, token_type: "Bearer" }, now)).toThrow(OAuthTooLarge);
    expect(() => toStoredTokens({ access_token: huge, token_type: "Bearer" }, now)).toThrow(
      "its authorization server sent an access token of 1,048,576 characters (at most 16,384)",
    );
    const atLimit = "t".repeat(MAX_TOKEN_CHARS);
    expect(toStoredTokens({ access_token: atLimit, token_type: "Bearer" }, now).access_token).toBe(atLimit);
    expect(() => toStoredTokens({ access_token: "a", refresh_token: huge, token_type: "Bearer" }, now)).toThrow(
      /refresh token/,
    );
    expect(() => toStoredTokens({ access_token: "a", token_type: "Bearer", scope: "s ".repeat(5000) }, now)).toThrow(
      /scope/,
    );
  });
});

describe("scope step-up", () => {
  it("asks for every scope once: the granted ones and the ones a call needs", () => {
    expect(scopeUnion("tools", "tools tools:write", undefined, null)).toBe("tools tools:write");
    expect(scopeUnion(undefined, "")).toBeUndefined();
  });
  it("asks again only for scopes the grant lacks: never for what it holds (no loop)", () => {
    expect(missingScopes("tools tools:write", "tools")).toEqual(["tools:write"]);
    expect(missingScopes("mcp:admin", "mcp:admin")).toEqual([]);
    expect(missingScopes(undefined, "tools")).toEqual([]);
    expect(missingScopes("tools", null)).toEqual(["tools"]);
  });
});

describe("a sign-in URL the browser may open", () => {
  it("is https, or http to loopback where loopback is allowed", () => {
    expect(openableUrl("https://auth.example.com/authorize?x=1", false)).toBe(true);
    expect(openableUrl("http://127.0.0.1:8080/authorize", true)).toBe(true);
    expect(openableUrl("http://localhost:8080/authorize", true)).toBe(true);
    expect(openableUrl("http://[::1]:8080/authorize", true)).toBe(true);
    expect(openableUrl("http://127.0.0.1:8080/authorize", false)).toBe(false);
    expect(openableUrl("http://auth.example.com/authorize", true)).toBe(false);
  });
  it.each([
    "file:///etc/passwd",
    "blob:https://auth.example.com/6f1c3b9e-1d5e-4b1a-9f59-0c8c7f0e2a11",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "ftp://auth.example.com/",
    "https://user:pw@auth.example.com/",
    "not a url",
  ])("is never %s", (url) => {
    expect(openableUrl(url, true)).toBe(false);
  });
  it("knows loopback hosts as the URL parser writes them", () => {
    for (const host of ["localhost", "app.localhost", "127.0.0.1", "127.1.2.3", "[::1]"])
      expect(isLoopbackHost(new URL(`http://${host}/`).hostname), host).toBe(true);
    for (const host of ["example.com", "10.0.0.1", "localhost.example.com", "[::2]"])
      expect(isLoopbackHost(new URL(`http://${host}/`).hostname), host).toBe(false);
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
