// What an OAuth server's connection says in Settings → Tools, and the one action it offers (oauth-connect.tsx):
// Connect before it is authorized, Disconnect once connected, Reconnect when its grant expired or a call
// was refused for want of scopes (403 insufficient_scope), naming the scopes to allow.
import type { McpAuthInfo, McpOAuthStatus } from "../../../../../protocol";

type OAuthInfo = Extract<McpAuthInfo, { type: "oauth" }>;

const OAUTH_WORDS: Record<McpOAuthStatus, string> = {
  connected: "connected",
  needs_authorization: "not connected yet",
  expired: "authorization expired",
};

/** The row's authentication in a few words: "connected", "needs more access"… */
export const oauthWords = (auth: OAuthInfo): string =>
  auth.status === "connected" && auth.needed_scopes.length ? "needs more access" : OAUTH_WORDS[auth.status];

/** What an OAuth server's connection says, and the one action it offers; `alert` when the user must act. */
export interface OAuthState {
  text: string;
  tone?: "ok" | "error";
  action: "Connect" | "Reconnect" | "Disconnect";
  alert: boolean;
}

export function oauthState(auth: OAuthInfo): OAuthState {
  const scopes = auth.scopes.length ? ` · scopes: ${auth.scopes.join(", ")}` : "";
  if (auth.status === "expired") return { text: auth.error ?? "", tone: "error", action: "Reconnect", alert: true };
  if (auth.status === "needs_authorization")
    return {
      text: "Not connected: sign in with the server's provider to give the agent its tools.",
      action: "Connect",
      alert: false,
    };
  // A call was refused for want of scopes: Reconnect asks for them with the granted ones.
  if (auth.needed_scopes.length)
    return {
      text: `Connected${scopes}. A call needs more access: reconnect to allow ${auth.needed_scopes.join(", ")}.`,
      tone: "error",
      action: "Reconnect",
      alert: true,
    };
  return { text: `Connected${scopes}`, tone: "ok", action: "Disconnect", alert: false };
}
