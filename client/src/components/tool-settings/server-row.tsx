// One MCP server: its name, URL, authentication (never the secret), on/off switch, last connection
// test, the tools it found (each can be turned off), and its actions: Test connection, Replace secret,
// Delete (after a confirm step).
import { useRef, useState } from "preact/hooks";
import type { McpAuthInput, McpServer } from "../../../../protocol";
import type { ApiResult } from "../../lib/api";
import { pageStyle as page } from "../page-frame";
import switchStyle from "../switch/style.module.css";
import { DeleteConfirm } from "./delete-confirm";
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
};

export function ServerRow(props: Props) {
  const { server, now, testing, error } = props;
  const [panel, setPanel] = useState<"none" | "secret" | "delete">("none");
  const status = testStatus(server, testing, now);
  const nameId = `mcp-name-${server.id}`;
  const deleteButton = useRef<HTMLButtonElement>(null);
  const cancelDelete = () => {
    setPanel("none");
    setTimeout(() => deleteButton.current?.focus());
  };
  return (
    <li
      class={style.server}
      aria-labelledby={nameId}
      data-testid="mcp-server"
      data-name={server.name}
      data-enabled={server.enabled ? "true" : "false"}
    >
      <div class={style.head}>
        <h3 id={nameId} class={style.name}>
          {server.name}
        </h3>
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
      </div>
      <p class={style.url} data-testid="mcp-url">
        {server.url}
      </p>
      <p class={style.auth} data-testid="mcp-auth">
        {authText(server.auth)}
      </p>
      <p
        class={`${style.status} ${style[status.state]}`}
        role="status"
        data-testid="mcp-status"
        data-state={status.state}
      >
        {status.text}
      </p>
      <div class={style.actions}>
        <button type="button" onClick={props.onTest} disabled={testing} aria-busy={testing} data-testid="mcp-test">
          {testing ? "Testing…" : "Test connection"}
        </button>
        <button
          type="button"
          aria-expanded={panel === "secret"}
          onClick={() => setPanel(panel === "secret" ? "none" : "secret")}
          data-testid="mcp-replace-secret"
        >
          {server.auth.type === "none" ? "Set a secret" : "Replace secret"}
        </button>
        <button
          type="button"
          ref={deleteButton}
          class={page.danger}
          onClick={() => setPanel("delete")}
          disabled={panel === "delete"}
          data-testid="mcp-delete"
        >
          Delete
        </button>
      </div>
      {error && (
        <p class={style.fieldError} role="alert" data-testid="mcp-row-error">
          {error}
        </p>
      )}
      {panel === "delete" && <DeleteConfirm name={server.name} onCancel={cancelDelete} onDelete={props.onDelete} />}
      {panel === "secret" && (
        <SecretForm server={server} onSave={props.onReplaceSecret} onClose={() => setPanel("none")} />
      )}
      <ToolList server={server} onToggle={props.onToggleTool} />
    </li>
  );
}
