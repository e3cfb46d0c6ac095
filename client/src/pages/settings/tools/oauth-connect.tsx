// An OAuth server's connection (issue 30): "Connect" before it is authorized, "Connected" with
// "Disconnect" after, and, when its grant expired or was revoked, the reason in words with "Reconnect".
// A connected server that refused a call for want of scopes says which, with "Reconnect" to allow them.
// Connecting opens the authorization server in a popup (the tab itself when popups are blocked).
import type { McpServer } from "../../../../../protocol";
import { formStyle as kit } from "../../../components/settings-form";
import style from "./style.module.css";

type Props = {
  server: McpServer;
  busy: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
};

export function OAuthConnect({ server, busy, onConnect, onDisconnect }: Props) {
  const { auth } = server;
  if (auth.type !== "oauth") return null;
  const scopes = auth.scopes.length ? ` · scopes: ${auth.scopes.join(", ")}` : "";
  const needed = auth.needed_scopes;
  // What each status says, and the one action it offers.
  const state = {
    connected: needed.length
      ? {
          text: `Connected${scopes}. A call needs more access: reconnect to allow ${needed.join(", ")}.`,
          tone: kit.fieldError,
          action: "Reconnect",
          testid: "mcp-oauth-connect",
        }
      : { text: `Connected${scopes}`, tone: kit.ok, action: "Disconnect", testid: "mcp-oauth-disconnect" },
    needs_authorization: {
      text: "Not connected: sign in with the server's provider to give the agent its tools.",
      tone: undefined,
      action: "Connect",
      testid: "mcp-oauth-connect",
    },
    expired: { text: auth.error, tone: kit.fieldError, action: "Reconnect", testid: "mcp-oauth-connect" },
  }[auth.status];
  const needsUser = auth.status === "expired" || needed.length > 0;
  return (
    <div class={style.oauth} data-testid="mcp-oauth" data-status={auth.status}>
      <p
        class={state.tone ? `${style.oauthText} ${state.tone}` : style.oauthText}
        role={needsUser ? "alert" : undefined}
        data-testid="mcp-oauth-status"
      >
        {state.text}
      </p>
      <button
        type="button"
        onClick={state.action === "Disconnect" ? onDisconnect : onConnect}
        disabled={busy}
        aria-label={`${state.action} ${server.name}`}
        data-testid={state.testid}
      >
        {state.action}
      </button>
    </div>
  );
}
