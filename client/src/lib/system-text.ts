// Small text helpers for system items, whose bodies are the exact text the model saw. What an item
// says in words is shared with the Worker's export (protocol/system-words.ts), re-exported here.
import type { Severity } from "../../../protocol";
import { SYSTEM_REMINDER_CLOSE, SYSTEM_REMINDER_OPEN } from "../../../protocol";

export {
  compactionTitle,
  contextSentence,
  interruptSentence,
  linksSentence,
  podEventLine,
  reminderSentence,
  splitReferenceBody,
} from "../../../protocol/system-words";

/** The inside of a `<system-reminder>` block, for display; other text is returned unchanged. */
export function unwrapReminder(body: string): string {
  const trimmed = body.trim();
  if (trimmed.startsWith(SYSTEM_REMINDER_OPEN) && trimmed.endsWith(SYSTEM_REMINDER_CLOSE)) {
    return trimmed.slice(SYSTEM_REMINDER_OPEN.length, -SYSTEM_REMINDER_CLOSE.length).trim();
  }
  return body;
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
  Quota: "Limits",
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
