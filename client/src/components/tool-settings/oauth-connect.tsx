// An OAuth server's connection (issue 30): "Connect" before it is authorized, "Connected" with
// "Disconnect" after, and, when its grant expired or was revoked, the reason in words with "Reconnect".
// Connecting opens the authorization server in a popup (the tab itself when popups are blocked).
import type { McpServer } from "../../../../protocol";
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
  return (
    <div class={style.oauth} data-testid="mcp-oauth" data-status={auth.status}>
      {auth.status === "connected" && (
        <>
          <p class={`${style.oauthText} ${style.ok}`} data-testid="mcp-oauth-status">
            Connected{scopes}
          </p>
          <button
            type="button"
            onClick={onDisconnect}
            disabled={busy}
            aria-label={`Disconnect ${server.name}`}
            data-testid="mcp-oauth-disconnect"
          >
            Disconnect
          </button>
        </>
      )}
      {auth.status === "needs_authorization" && (
        <>
          <p class={style.oauthText} data-testid="mcp-oauth-status">
            Not connected: sign in with the server's provider to give the agent its tools.
          </p>
          <button
            type="button"
            onClick={onConnect}
            disabled={busy}
            aria-label={`Connect ${server.name}`}
            data-testid="mcp-oauth-connect"
          >
            Connect
          </button>
        </>
      )}
      {auth.status === "expired" && (
        <>
          <p class={`${style.oauthText} ${style.fieldError}`} role="alert" data-testid="mcp-oauth-status">
            {auth.error}
          </p>
          <button
            type="button"
            onClick={onConnect}
            disabled={busy}
            aria-label={`Reconnect ${server.name}`}
            data-testid="mcp-oauth-connect"
          >
            Reconnect
          </button>
        </>
      )}
    </div>
  );
}
