// A server's tools as its last connection test found them: the name the model sees, what the tool
// does, a checkbox that offers it to the agent or not (PATCH disabled_tools), and whether it asks before
// it runs (a tool the server does not mark read-only asks by default).
import { type McpServer, mcpApprovalKey } from "../../../../../protocol";
import { formStyle as kit } from "../../../components/settings-form";
import { ApprovalChoice } from "../../../components/tool-approvals";
import style from "./style.module.css";

type Props = { server: McpServer; onToggle: (tool: string, enabled: boolean) => void };

export function ToolList({ server, onToggle }: Props) {
  if (server.tools.length === 0)
    return (
      <p class={kit.muted}>
        {server.checked_at && !server.last_error
          ? "The server offers no tools."
          : "Test the connection to see the server's tools."}
      </p>
    );
  return (
    <ul class={style.tools} aria-label={`Tools of ${server.name}`}>
      {server.tools.map((tool, index) => {
        const id = `mcp-tool-${server.id}-${index}`;
        return (
          <li
            key={tool.name}
            class={style.tool}
            data-testid="mcp-tool"
            data-tool={tool.qualified_name}
            data-enabled={tool.enabled ? "true" : "false"}
          >
            <input
              id={id}
              type="checkbox"
              checked={tool.enabled}
              aria-describedby={tool.description ? `${id}-description` : undefined}
              onChange={(event) => onToggle(tool.name, event.currentTarget.checked)}
              data-testid="mcp-tool-enabled"
            />
            <div class={style.toolText}>
              <label for={id} class={style.toolName}>
                {tool.qualified_name}
              </label>
              {tool.description && (
                <p id={`${id}-description`} class={style.toolDescription}>
                  {tool.description}
                </p>
              )}
            </div>
            <ApprovalChoice
              toolKey={mcpApprovalKey(server.id, tool.name)}
              label={tool.qualified_name}
              fallback={tool.read_only ? "allow" : "ask"}
            />
          </li>
        );
      })}
    </ul>
  );
}
