// One MCP server: its name, URL, authentication (never the secret), on/off switch, last connection
// test, the tools it found (each can be turned off), and its actions: Test connection, Replace secret,
// Delete (after a confirm step); an OAuth server also Connect, Disconnect or Reconnect.
import type { McpAuthInput, McpServer } from "../../../../../protocol";
import { RowActions, SettingsRow } from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import switchStyle from "../../../ui/switch/style.module.css";
import { OAuthConnect } from "./oauth-connect";
import { SecretForm } from "./secret-form";
import { authText, testStatus } from "./status";
import style from "./style.module.css";
import { ToolList } from "./tool-list";

type Props = {
  server: McpServer;
  now: number;
  testing: boolean;
  error?: string;
  onTest: () => void;
  onEnable: (enabled: boolean) => void;
  onToggleTool: (tool: string, enabled: boolean) => void;
  onReplaceSecret: (auth: McpAuthInput) => Promise<ApiResult<McpServer>>;
  onDelete: () => Promise<boolean>;
  onConnect: () => void;
  onDisconnect: () => void;
};

export function ServerRow(props: Props) {
  const { server, now, testing, error } = props;
  const status = testStatus(server, testing, now);
  return (
    <SettingsRow
      id={server.id}
      idPrefix="mcp"
      name={server.name}
      url={server.url}
      auth={authText(server.auth)}
      status={status}
      testids={{ row: "mcp-server", url: "mcp-url", auth: "mcp-auth", status: "mcp-status" }}
      data={{ "data-enabled": server.enabled ? "true" : "false" }}
      beside={
        <label class={style.switch}>
          <span class={style.switchText}>{server.enabled ? "On" : "Off"}</span>
          <input
            type="checkbox"
            role="switch"
            class={switchStyle.toggle}
            checked={server.enabled}
            aria-checked={server.enabled}
            aria-label={`Offer ${server.name}'s tools to the agent`}
            onChange={(event) => props.onEnable(event.currentTarget.checked)}
            data-testid="mcp-enabled"
          />
        </label>
      }
      beforeStatus={
        <OAuthConnect server={server} busy={testing} onConnect={props.onConnect} onDisconnect={props.onDisconnect} />
      }
    >
      <RowActions
        testid="mcp"
        name={server.name}
        testing={testing}
        testLabel="Test connection"
        onTest={props.onTest}
        secret={{ label: server.auth.type === "none" ? "Set a secret" : "Replace secret", testid: "replace-secret" }}
        secretForm={(close) => <SecretForm server={server} onSave={props.onReplaceSecret} onClose={close} />}
        error={error}
        onDelete={props.onDelete}
      />
      <ToolList server={server} onToggle={props.onToggleTool} />
    </SettingsRow>
  );
}
