// The Tools tab (issue 14): the user's own remote MCP servers, whose tools the agent is offered as
// `<server>__<tool>`. Each server can be switched off, tested, given a new secret or deleted, and each
// of its tools turned off; the form under the list adds one and tests it at once (switched on when it
// works, else left off, and the form says why).

import { useState } from "preact/hooks";
import { pageStyle as page } from "../../../components/page-frame";
import { formStyle as kit } from "../../../components/settings-form";
import { oauthLanding, useMcpServers, withToolEnabled } from "../../../lib/use-mcp-servers";
import { useNow } from "../../../lib/use-now";
import { AddServerForm } from "./add-server-form";
import { ServerRow } from "./server-row";

const LANDING_WORDS = {
  connected: "The server is connected.",
  denied: "The authorization was declined; the server is not connected.",
  failed: "Connecting the server failed; see its row below.",
} as const;

export function ToolSettings() {
  const { state, testing, rowErrors, test, create, enable, update, remove, connect, disconnect } = useMcpServers();
  const now = useNow();
  // Back from an authorization server in this tab (popups blocked): say how it went, once.
  const [landing] = useState(oauthLanding);
  return (
    <section data-testid="tool-settings" data-status={state.status}>
      <p class={kit.intro}>
        Connect your own MCP servers (remote, over HTTP) to give the agent their tools. Secrets are stored encrypted and
        never shown again.
      </p>
      {landing && (
        <p
          class={landing.outcome === "connected" ? kit.ok : kit.fieldError}
          role="status"
          data-testid="mcp-oauth-landing"
        >
          {LANDING_WORDS[landing.outcome]}
        </p>
      )}
      {state.status === "loading" && <p class={page.muted}>Loading…</p>}
      {state.status === "unavailable" && (
        <p class={page.muted} data-testid="mcp-unavailable">
          MCP servers are not available yet
        </p>
      )}
      {state.status === "failed" && (
        <p class={page.statusError} role="alert">
          Could not load your MCP servers: {state.message}
        </p>
      )}
      {state.status === "ready" && (
        <>
          {state.items.length === 0 ? (
            <p class={page.empty} data-testid="mcp-empty">
              No MCP servers yet
            </p>
          ) : (
            <ul class={kit.servers} aria-label="MCP servers">
              {state.items.map((server) => (
                <ServerRow
                  key={server.id}
                  server={server}
                  now={now}
                  testing={testing[server.id] ?? false}
                  error={rowErrors[server.id]}
                  onTest={() => void test(server.id)}
                  onEnable={(enabled) => void enable(server, enabled)}
                  onToggleTool={(tool, enabled) => {
                    const next = withToolEnabled(server, tool, enabled);
                    void update(server, { disabled_tools: next.disabled_tools }, { optimistic: next });
                  }}
                  onReplaceSecret={async (auth) => {
                    const result = await update(server, { auth }, { quiet: true });
                    if (result.ok) void test(server.id);
                    return result;
                  }}
                  onDelete={() => remove(server.id)}
                  onConnect={() => void connect(server.id)}
                  onDisconnect={() => void disconnect(server.id)}
                />
              ))}
            </ul>
          )}
          <AddServerForm onCreate={create} />
        </>
      )}
    </section>
  );
}
