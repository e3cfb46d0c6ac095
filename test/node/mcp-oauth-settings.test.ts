// What Settings → Tools says of an OAuth server (client/src/pages/settings/tools/oauth-state.ts): a connected
// server whose call was refused for want of scopes (403 insufficient_scope) asks the user to reconnect
// to allow them, with Reconnect, instead of reading "Connected" as if nothing were wrong.
import { describe, expect, it } from "vitest";
import { oauthState, oauthWords } from "../../client/src/pages/settings/tools/oauth-state";
import type { McpAuthInfo } from "../../protocol";

type OAuthInfo = Extract<McpAuthInfo, { type: "oauth" }>;
const oauth = (over: Partial<OAuthInfo>): OAuthInfo => ({
  type: "oauth",
  status: "connected",
  expires_at: null,
  scopes: ["tools"],
  client_id: null,
  error: null,
  needed_scopes: [],
  ...over,
});

describe("an OAuth server in Settings → Tools", () => {
  it("reads Connected with Disconnect while nothing more is needed", () => {
    expect(oauthState(oauth({}))).toEqual({
      text: "Connected · scopes: tools",
      tone: "ok",
      action: "Disconnect",
      alert: false,
    });
    expect(oauthWords(oauth({}))).toBe("connected");
  });

  it("asks to reconnect to allow the scopes a call needed, with Reconnect", () => {
    const needing = oauth({ needed_scopes: ["tools:write"] });
    expect(oauthState(needing)).toEqual({
      text: "Connected · scopes: tools. A call needs more access: reconnect to allow tools:write.",
      tone: "error",
      action: "Reconnect",
      alert: true,
    });
    expect(oauthWords(needing)).toBe("needs more access");
  });

  it("offers Connect before, and Reconnect with the reason once the grant expired", () => {
    expect(oauthState(oauth({ status: "needs_authorization", scopes: [] })).action).toBe("Connect");
    const expired = oauthState(oauth({ status: "expired", error: "The authorization for x expired or was revoked" }));
    expect(expired).toMatchObject({ action: "Reconnect", alert: true, text: expect.stringContaining("expired") });
  });
});
