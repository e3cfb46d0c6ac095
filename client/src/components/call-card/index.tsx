// The card base of the tool card, the delegate card and a subagent's tool lines: the frame's classes
// (its left edge in the call's status colour), the status pill (with how an approval went), and the
// "step 2 · 1.3 s" meta. Each card keeps its own element (a <details> for a tool, an <article> for a
// delegate) and what only it shows.
import type { ComponentChildren } from "preact";
import type { LiveTool } from "../../lib/conversation-state";
import { JsonBlock } from "../../ui/json-block";
import { Spinner } from "../../ui/spinner";
import style from "./style.module.css";

type Status = LiveTool["status"];

/** The frame's classes for a call in this status, plus the card's own. */
export function cardClass(status: Status, own = ""): string {
  return `${style.card} ${style[status] ?? ""} ${own}`.trim();
}

/**
 * A tool call's card attributes: a saved call is a `tool` message of the log (`data-seq`), one still
 * running is `live-tool`; tests and the turn's folding find both by call id, status and tool.
 */
export function callCardData(call: Pick<LiveTool, "call_id" | "status" | "tool">, seq: number | undefined) {
  const persisted = seq !== undefined;
  return {
    "data-role": persisted ? "tool" : undefined,
    "data-seq": seq,
    "data-testid": persisted ? undefined : "live-tool",
    "data-call-id": call.call_id,
    "data-status": call.status,
    "data-tool": call.tool,
  };
}

/** The call as the model made it, inside the card: its name, arguments (unless shown otherwise), error and result. */
export function CallJson({ call, args = true }: { call: LiveTool; args?: boolean }) {
  return (
    <>
      <JsonBlock label="Tool" value={call.tool} />
      {args && <JsonBlock label="Arguments" value={call.args} />}
      {call.error !== undefined && <JsonBlock label="Error" value={call.error} />}
      {call.result !== undefined && <JsonBlock label="Result" value={call.result} />}
    </>
  );
}

/** The classes of the card's first line (name, status, meta), plus the card's own. */
export const lineClass = (own = "") => `${style.line} ${own}`.trim();

export const nameClass = style.name;

const TONES: Partial<Record<Status, string>> = {
  success: style.toneSuccess,
  error: style.toneError,
  timeout: style.toneTimeout,
};

type PillProps = {
  /** The status whose colour the words take; none keeps them plain. */
  tone?: Status;
  /** The subagent's lines: a size smaller. */
  small?: boolean;
  children: ComponentChildren;
};

export function StatusPill({ tone, small, children }: PillProps) {
  const classes = [style.status, tone && TONES[tone], small && style.small].filter(Boolean).join(" ");
  return <span class={classes}>{children}</span>;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "step 2 · 1.3 s", at the line's end. */
export function CallMeta({ call }: { call: Pick<LiveTool, "step" | "duration_ms"> }) {
  return (
    <span class={style.meta}>
      step {call.step}
      {call.duration_ms !== undefined && ` · ${formatDuration(call.duration_ms)}`}
    </span>
  );
}

/** How a call that waited for approval was decided, in words. */
const APPROVAL_WORDS = { approved: "approved by you", denied: "denied by you", timed_out: "not approved in time" };

/** The call's status, and how its approval and its server's questions went: on every tool card's line. */
export function ToolStatus({ call }: { call: LiveTool }) {
  return (
    <>
      <StatusPill tone={call.status}>
        {call.status === "running" && !call.awaitingApproval && <Spinner data-testid="tool-running" />}
        {call.awaitingApproval ? "waiting for approval" : call.status}
      </StatusPill>
      {call.approval && (
        <span class={style.badge} data-testid="tool-approval" data-approval={call.approval}>
          {APPROVAL_WORDS[call.approval]}
        </span>
      )}
      {call.elicitations?.length ? (
        <span class={style.badge} data-testid="tool-elicited">
          asked you
        </span>
      ) : null}
    </>
  );
}

/** The call as the model made it, folded: for a card that says what the call did in its own words. */
export function CallDetails({ call }: { call: LiveTool }) {
  return (
    <details class={style.raw}>
      <summary>Call details</summary>
      <CallJson call={call} />
    </details>
  );
}
