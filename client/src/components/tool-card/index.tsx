// One tool call: what it does in words (an MCP tool's own name, with its server's in a badge), status,
// duration, then its name as the model calls it, its arguments and result or error. Persisted tool messages and live ones (from `tool_start`, still
// running) share this card; a large card starts collapsed so it does not push the conversation off
// screen, and so does every card of a turn group. A file tool's arguments read as rows ("File:
// report.pdf", "Pages: 3-5"), and a file it made (note_to_file) is a chip to open or download.
import { type ElicitationRecord, toolLabel } from "../../../../protocol";
import type { LiveTool, SubagentRun } from "../../lib/conversation-state";
import { Icon } from "../../ui/icon";
import { formatJson } from "../../ui/json-block";
import hidden from "../../ui/visually-hidden/style.module.css";
import { CallJson, CallMeta, callCardData, cardClass, lineClass, nameClass, ToolStatus } from "../call-card";
import { lazyPart } from "../shell/lazy";
import style from "./style.module.css";

// A subagent's card (delegate): loaded with the first one, its panel of the subagent's steps with it.
const DelegateCard = lazyPart(() => import("../delegate-card").then((m) => m.DelegateCard));

// The memory tool's card ("Memory saved" with Undo): loaded with the first one.
const MemoryToolCard = lazyPart(() => import("../memory-card").then((m) => m.MemoryToolCard));

// The web tools' cards (web_search, web_fetch: their words, results and pages), loaded with the first one.
const WebToolCard = lazyPart(() => import("../web").then((m) => m.WebToolCard));
const webTool = (tool: string) => tool === "web_search" || tool === "web_fetch";

// A file tool's readable arguments and the file it made: loaded with the first such card.
const FileToolParts = lazyPart(() => import("../attachments").then((m) => m.FileToolParts));
/** The tools on a conversation's files (docs/protocol.md "Files"): file_read, file_search, file_to_note, note_to_file. */
const fileTool = (tool: string) => tool.startsWith("file_") || tool === "note_to_file";

export type ToolCardProps = {
  call: LiveTool;
  /** Set for a persisted message; live cards have none. */
  seq?: number;
  /** The subagent a `delegate` call started, when this session saw it run. */
  subagent?: SubagentRun;
  /** In a turn group or the live list: starts as one line (name, status, duration), openable. */
  compact?: boolean;
};

const LARGE_CHARS = 600;
const LARGE_LINES = 16;

function isLarge(text: string): boolean {
  return text.length > LARGE_CHARS || text.split("\n").length > LARGE_LINES;
}

/** How a server's request during the call ended, after what it asked. */
const ELICITATION_ENDS = {
  accept: "you answered",
  decline: "you declined",
  cancel: "you cancelled",
  timed_out: "not answered in time",
  stopped: "cancelled by Stop",
} as const;

/** What the call's server asked the user, and the answer, in words. */
function Elicitations({ records }: { records: readonly ElicitationRecord[] }) {
  return (
    <ul class={style.elicitations} data-testid="tool-elicitations">
      {records.map((r, i) => (
        <li key={i} data-outcome={r.outcome}>
          {r.server} asked: “{r.message}”{r.url ? ` (${r.url})` : ""} —{" "}
          {r.mode === "url" && r.outcome === "accept" ? "you opened the link" : ELICITATION_ENDS[r.outcome]}
          {r.answers?.length ? `: ${r.answers.map((a) => `${a.label}: ${a.value}`).join("; ")}` : ""}
        </li>
      ))}
    </ul>
  );
}

export function ToolCard({ call, seq, subagent, compact }: ToolCardProps) {
  if (call.tool === "delegate") return <DelegateCard call={call} seq={seq} subagent={subagent} />;
  if (webTool(call.tool)) return <WebToolCard call={call} seq={seq} compact={compact} />;
  if (call.tool === "memory") return <MemoryToolCard call={call} seq={seq} compact={compact} />;
  const args = formatJson(call.args);
  const result = formatJson(call.result);
  const large = isLarge(args + result + (call.error ?? ""));
  // A tool shows as words ("Search notes"; an MCP tool's own name humanised, with the user's server it
  // runs on in a badge); its name as the model calls it is inside, with the arguments.
  const mcp = toolLabel(call.tool);
  return (
    <details class={cardClass(call.status)} open={!compact && !large} {...callCardData(call, seq)}>
      <summary class={lineClass(style.summary)}>
        <span class={style.icon}>
          <Icon name="wrench" />
        </span>
        <span class={nameClass}>{mcp.label}</span>
        {mcp.server && (
          <span class={style.server} title={`MCP server ${mcp.server}`} data-testid="tool-server">
            <span class={hidden.visuallyHidden}>on MCP server </span>
            {mcp.server}
          </span>
        )}
        <ToolStatus call={call} />
        <CallMeta call={call} />
      </summary>
      <div class={style.body}>
        {call.elicitations?.length ? <Elicitations records={call.elicitations} /> : null}
        {fileTool(call.tool) && <FileToolParts tool={call.tool} args={call.args} result={call.result} />}
        <CallJson call={call} args={!fileTool(call.tool)} />
      </div>
    </details>
  );
}
