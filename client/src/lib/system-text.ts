// Small text helpers for system items, whose bodies are the exact text the model saw.
import type { PodEvent, Severity, SystemItem } from "../../../protocol";
import { SYSTEM_REMINDER_CLOSE, SYSTEM_REMINDER_OPEN } from "../../../protocol";

/** The inside of a `<system-reminder>` block, for display; other text is returned unchanged. */
export function unwrapReminder(body: string): string {
  const trimmed = body.trim();
  if (trimmed.startsWith(SYSTEM_REMINDER_OPEN) && trimmed.endsWith(SYSTEM_REMINDER_CLOSE)) {
    return trimmed.slice(SYSTEM_REMINDER_OPEN.length, -SYSTEM_REMINDER_CLOSE.length).trim();
  }
  return body;
}

/** One line for a subagent ("pod") lifecycle event, as the system item's own card words it. */
export function podEventLine(event: PodEvent): string {
  switch (event.type) {
    case "turn_ended":
      return `Subagent ${event.pod_name} finished its turn`;
    case "errored":
      return `Subagent ${event.pod_name} errored: ${event.message}`;
    case "shut_down":
      return `Subagent ${event.pod_name} was shut down`;
    case "scope_sub_delegated":
      return `Subagent ${event.parent_pod} delegated part of its task to ${event.sub_pod}`;
  }
}

/**
 * A reference item's body without its first line when that is the header the server put there
 * ("[File: a.md]", "[Dir: a/]", "[Knowledge: slug] Title", "[Workflow: /slug] Title"), plus the title
 * that header carried. Anything else is returned whole.
 */
export function splitReferenceBody(body: string): { title: string; content: string } {
  const match = /^\[(?:File|Dir|Knowledge|Workflow): [^\]\n]*\]([^\n]*)(?:\n|$)/.exec(body);
  if (!match) return { title: "", content: body };
  return { title: (match[1] ?? "").trim(), content: body.slice(match[0].length) };
}

/** An interrupt's body for display, without the "[Interrupted]" marker the model gets. */
export function interruptText(body: string): string {
  return body.replace(/^\s*\[Interrupted\]\s*/, "");
}

/** What a compaction did to the model's context, in one line (the divider's title, a subagent's line). */
export function compactionTitle(item: Extract<SystemItem, { kind: "compaction" }>): string {
  return item.method === "cut" ? "Earlier messages shortened to fit the context window" : "Earlier messages summarised";
}

/**
 * Where a System message comes from, in the words of what a person uses ("Tools", "Limits"), for the
 * card's header; the source's own name (a subscriber's `source`) stays in the card's details.
 */
const PLAIN_SOURCES: Record<string, string> = {
  "Tool Executor": "Tools",
  "MCP Connector": "Tools",
  "Loop Detector": "Agent",
  "Turn Control": "Agent",
  "Budget Monitor": "Limits",
  "Model Provider": "Model",
  "Task Reminder": "Tasks",
  "Event Bus": "Notifications",
  References: "Notes",
};

export function plainSource(source: string): string {
  return PLAIN_SOURCES[source] ?? source;
}

/** A severity as a person would say it (the card's icon says it by colour and shape). */
export function severityWords(severity: Severity): string {
  return SEVERITY_WORDS[severity];
}

const SEVERITY_WORDS: Record<Severity, string> = {
  debug: "For the record",
  info: "For your information",
  warning: "Warning",
  error: "Error",
  critical: "Critical",
};
