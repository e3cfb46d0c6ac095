// Turns a notification system item into something a person can read (seed 000 FR-025). The body the
// model saw is "[Notification: <name>] <headline>\n<data as TOON or compact JSON>"; the UI shows the
// headline (`message`) as its own line and the data part decoded: the TOON (or JSON) text itself when
// it parses, else the structured `data` the server sent beside it. Content that should decode but does
// not, with no `data` to fall back on, is returned raw and marked, never dropped (seed 000 edge cases).
import type { SystemItem } from "../../../protocol";
import { unwrapReminder } from "./system-text";

export type Notification = Extract<SystemItem, { kind: "notification" }>;

export type NotificationContent =
  /** Structured data; `from` says whether it was decoded from the body or taken from `data`. */
  | { kind: "data"; value: unknown; from: "body" | "data" }
  | { kind: "text"; text: string }
  | { kind: "unparsed"; text: string; format: "toon" | "json" }
  | { kind: "empty" };

const PREFIX = /^\[Notification:[^\]\n]*\]\s?/;

/**
 * The notification's one-line headline: `message` (its first line, should it span several: the data
 * carries the whole text), else the body's first line.
 */
export function headlineOf(item: Notification): string {
  const message = item.message.trim();
  if (!message) return (unwrapReminder(item.body).trim().split("\n", 1)[0] ?? "").replace(PREFIX, "").trim();
  const [first = "", ...rest] = message.split("\n");
  return rest.some((line) => line.trim() !== "") ? `${first.trimEnd()} …` : first;
}

/**
 * The body without its headline: what follows "[Notification: …] <message>\n". The headline is matched
 * whole (it may itself span lines); a body of another shape loses its first line only.
 */
export function payloadText(item: Notification): string {
  const body = unwrapReminder(item.body);
  const afterPrefix = body.replace(PREFIX, "");
  const message = item.message.trim();
  if (message && afterPrefix.startsWith(message)) return afterPrefix.slice(message.length).replace(/^\r?\n/, "");
  const newline = body.indexOf("\n");
  return newline < 0 ? "" : body.slice(newline + 1);
}

/** Rows beyond which a table starts collapsed. */
export const COLLAPSE_ROWS = 5;
/** Text lines (counting long lines as several) beyond which content starts collapsed. */
export const COLLAPSE_LINES = 8;
const CHARS_PER_LINE = 90;

function textLines(text: string): number {
  return text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / CHARS_PER_LINE)), 0);
}

function valueLines(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 1;
  if (typeof value !== "object") return textLines(String(value));
  if (depth > 3) return textLines(JSON.stringify(value));
  // Rows of a table take a line each, plus the header.
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "object" && v !== null))
    return value.length + 1;
  const items = Array.isArray(value) ? value : Object.values(value);
  return Math.max(1, items.reduce<number>((n, v) => n + valueLines(v, depth + 1), 0) + (Array.isArray(value) ? 1 : 0));
}

/** Whether content is long enough to start collapsed: a table over ~5 rows or many lines of text. */
export function isLong(content: NotificationContent): boolean {
  switch (content.kind) {
    case "data":
      if (Array.isArray(content.value) && content.value.length > COLLAPSE_ROWS) return true;
      return valueLines(content.value) > COLLAPSE_LINES;
    case "text":
    case "unparsed":
      return textLines(content.text) > COLLAPSE_LINES;
    case "empty":
      return false;
  }
}

/**
 * Shipped subscribers whose headline says what happened in words (seen from their templates): their
 * data (field names, reason codes) is detail, one click away. Any other notification's data is the
 * news itself (an external message, a subscriber added later) and shows at once.
 */
const HEADLINE_SAYS_IT = new Set([
  "tool_failure",
  "tool_success",
  "loop_detected",
  "mcp_unavailable",
  "budget_warning",
  "budget_exceeded",
  "llm_retry",
  "turn_summary",
]);

export function dataIsDetail(item: Notification): boolean {
  return HEADLINE_SAYS_IT.has(item.subscriber ?? "") && headlineOf(item) !== "";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function rows(item: Notification): Record<string, unknown>[] {
  if (Array.isArray(item.data)) return item.data.filter(isRecord);
  return isRecord(item.data) ? [item.data] : [];
}

/** The field of the data that says why, per subscriber whose headline leaves the why out. */
const REASON_FIELD: Record<string, string> = {
  tool_failure: "error",
  mcp_unavailable: "error",
  llm_retry: "message",
};

/**
 * Why, in one line under the headline, for notices whose headline only says what: a tool's error, why
 * a server could not be reached, the model provider's own message. Null when there is none.
 */
export function noticeReason(item: Notification): string | null {
  const field = REASON_FIELD[item.subscriber ?? ""];
  if (!field) return null;
  const reasons = [
    ...new Set(
      rows(item)
        .map((row) => row[field])
        .filter((r) => typeof r === "string" && r !== ""),
    ),
  ];
  return reasons.length ? reasons.join("; ") : null;
}

/** The MCP servers (their names in Settings → Tools) an "MCP servers unavailable" notice is about. */
export function unavailableServers(item: Notification): string[] {
  if (item.subscriber !== "mcp_unavailable") return [];
  const names = rows(item).map((row) => row.server);
  return [...new Set(names.filter((n): n is string => typeof n === "string" && n !== ""))];
}
