// Turns a notification system item into something a person can read (seed 000 FR-025). The body the
// model saw is "[Notification: <name>] <headline>\n<data as TOON or compact JSON>"; the UI shows the
// headline (`message`) as its own line, why in one line where the headline leaves it out, and the data
// part decoded (lib/notification-data.ts, a chunk of its own with the TOON decoder).
import type { SystemItem } from "../../../protocol";
import { plainHeadline, rows } from "./notice-words";
import { unwrapReminder } from "./system-text";

export type Notification = Extract<SystemItem, { kind: "notification" }>;

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

/** The headline as the card shows it: in the user's words where the subscriber's is the model's (lib/notice-words.ts). */
export const shownHeadline = (item: Notification) => plainHeadline(item, headlineOf(item));

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
  "quota_warning",
  "llm_retry",
  "turn_summary",
]);

export function dataIsDetail(item: Notification): boolean {
  return HEADLINE_SAYS_IT.has(item.subscriber ?? "") && headlineOf(item) !== "";
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
