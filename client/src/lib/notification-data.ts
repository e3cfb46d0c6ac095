// A notification's data part decoded for people (seed 000 FR-025): the TOON (or JSON) text itself when
// it parses, else the structured `data` the server sent beside it. Content that should decode but does
// not, with no `data` to fall back on, is returned raw and marked, never dropped (seed 000 edge cases).
// Apart from lib/notification-content.ts so that the TOON decoder loads with the first data shown
// (components/notification-data), not with the first paint.
import { decode } from "@toon-format/toon";
import { type Notification, payloadText } from "./notification-content";

export type NotificationContent =
  /** Structured data; `from` says whether it was decoded from the body or taken from `data`. */
  | { kind: "data"; value: unknown; from: "body" | "data" }
  | { kind: "text"; text: string }
  | { kind: "unparsed"; text: string; format: "toon" | "json" }
  | { kind: "empty" };

function tryDecode(text: string, format: "toon" | "json"): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: format === "toon" ? decode(text) : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const hasData = (item: Notification) => item.data !== undefined && item.data !== null;

export function notificationContent(item: Notification): NotificationContent {
  const payload = payloadText(item);
  if (item.format !== "text" && payload.trim() !== "") {
    const decoded = tryDecode(payload, item.format);
    if (decoded.ok) return { kind: "data", value: decoded.value, from: "body" };
    if (hasData(item)) return { kind: "data", value: item.data, from: "data" };
    return { kind: "unparsed", text: payload, format: item.format };
  }
  if (hasData(item)) return { kind: "data", value: item.data, from: "data" };
  if (payload.trim() !== "") return { kind: "text", text: payload };
  return { kind: "empty" };
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
