// An OAuth server's connection (issue 30): "Connect" before it is authorized, "Connected" with
// "Disconnect" after, and, when its grant expired or was revoked, the reason in words with "Reconnect".
// A connected server that refused a call for want of scopes says which, with "Reconnect" to allow them.
// Connecting opens the authorization server in a popup (the tab itself when popups are blocked).
import type { McpServer } from "../../../../../protocol";
import { formStyle as kit } from "../../../components/settings-form";
import { oauthState } from "./oauth-state";
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
  const state = oauthState(auth);
  const tone = state.tone === "ok" ? kit.ok : state.tone === "error" ? kit.fieldError : undefined;
  const disconnect = state.action === "Disconnect";
  return (
    <div class={style.oauth} data-testid="mcp-oauth" data-status={auth.status}>
      <p
        class={tone ? `${style.oauthText} ${tone}` : style.oauthText}
        role={state.alert ? "alert" : undefined}
        data-testid="mcp-oauth-status"
      >
        {state.text}
      </p>
      <button
        type="button"
        onClick={disconnect ? onDisconnect : onConnect}
        disabled={busy}
        aria-label={`${state.action} ${server.name}`}
        data-testid={disconnect ? "mcp-oauth-disconnect" : "mcp-oauth-connect"}
      >
        {state.action}
      </button>
    </div>
  );
}
