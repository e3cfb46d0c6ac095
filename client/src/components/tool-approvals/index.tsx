// Which tools ask before they run (issue 30): a choice per tool, "Ask first" or "Always allow", the
// tool's default marked. The built-in tools are listed here; each MCP tool's choice sits on its row in
// the server's tool list (ApprovalChoice, through ToolApprovalsContext).
import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ApprovalMode } from "../../../../protocol";
import { type ToolApprovalsApi, useToolApprovals } from "../../lib/use-tool-approvals";
import { pageStyle as page } from "../page-frame";
import style from "./style.module.css";

const ToolApprovalsContext = createContext<ToolApprovalsApi | undefined>(undefined);

export function ToolApprovalsProvider({ children }: { children: ComponentChildren }) {
  const api = useToolApprovals();
  return <ToolApprovalsContext.Provider value={api}>{children}</ToolApprovalsContext.Provider>;
}

const LABELS: Record<ApprovalMode, string> = { ask: "Ask first", allow: "Always allow" };

/** One tool's choice; `key` is its rule key (a built-in tool's name, or mcp:<server id>:<tool>). */
export function ApprovalChoice({
  toolKey,
  label,
  fallback,
}: {
  toolKey: string;
  label: string;
  fallback: ApprovalMode;
}) {
  const api = useContext(ToolApprovalsContext);
  if (api?.state.status !== "ready") return null;
  const mode = api.modeOf(toolKey, fallback);
  const error = api.errors[toolKey];
  return (
    <span class={style.choice}>
      <select
        class={style.select}
        value={mode}
        aria-label={`Before ${label} runs`}
        data-testid="approval-mode"
        data-tool-key={toolKey}
        onChange={(event) => {
          const next = event.currentTarget.value as ApprovalMode;
          void api.setMode(toolKey, next === fallback ? "default" : next);
        }}
      >
        {(["ask", "allow"] as const).map((m) => (
          <option key={m} value={m}>
            {LABELS[m]}
            {m === fallback ? " (default)" : ""}
          </option>
        ))}
      </select>
      {error && (
        <span class={page.statusError} role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

/** The built-in tools' choices: by default none asks; a user may want writes to their notes to. */
export function BuiltinApprovals() {
  const api = useContext(ToolApprovalsContext);
  if (!api) return null;
  const { state } = api;
  return (
    <section class={style.section} data-testid="builtin-approvals" aria-labelledby="builtin-approvals-title">
      <h2 id="builtin-approvals-title" class={style.title}>
        Built-in tools
      </h2>
      <p class={style.intro}>
        Choose which tools wait for your Approve before they run. By default, tools from MCP servers that may change
        something ask first; the built-in tools do not.
      </p>
      {state.status === "loading" && <p class={page.muted}>Loading…</p>}
      {state.status === "failed" && (
        <p class={page.statusError} role="alert">
          Could not load your approval settings: {state.message}
        </p>
      )}
      {state.status === "ready" && (
        <ul class={style.list}>
          {state.approvals.builtin.map((tool) => (
            <li key={tool.tool} class={style.row} data-testid="builtin-approval" data-tool={tool.tool}>
              <div class={style.text}>
                <span class={style.name}>{tool.tool}</span>
                <span class={style.kind}>{tool.writes ? "changes things" : "reads only"}</span>
                <p class={style.description}>{firstSentence(tool.description)}</p>
              </div>
              <ApprovalChoice toolKey={tool.tool} label={tool.tool} fallback={tool.default_mode} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function firstSentence(text: string): string {
  const end = text.search(/[.!?](\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}
