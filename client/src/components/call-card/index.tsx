// The card base of the tool card, the delegate card and a subagent's tool lines: the frame's classes
// (its left edge in the call's status colour), the status pill, and the "step 2 · 1.3 s" meta. Each card
// keeps its own element (a <details> for a tool, an <article> for a delegate) and what only it shows.
import type { ComponentChildren } from "preact";
import type { LiveTool } from "../../lib/conversation-state";
import style from "./style.module.css";

type Status = LiveTool["status"];

/** The frame's classes for a call in this status, plus the card's own. */
export function cardClass(status: Status, own = ""): string {
  return `${style.card} ${style[status] ?? ""} ${own}`.trim();
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
