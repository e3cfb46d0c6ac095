// Turns a notification system item into something a person can read (seed 000 FR-025): the structured
// `data` when the server sent it, else the TOON or JSON text decoded, else the text itself. Content that
// should decode but does not is returned raw and marked, never dropped (seed 000 edge cases).
import { decode } from "@toon-format/toon";
import type { SystemItem } from "../../../protocol";
import { unwrapReminder } from "./system-text";

type Notification = Extract<SystemItem, { kind: "notification" }>;

export type NotificationContent =
  | { kind: "data"; value: unknown }
  | { kind: "text"; text: string }
  | { kind: "unparsed"; text: string };

function tryDecode(text: string, format: "toon" | "json"): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: format === "toon" ? decode(text) : JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isStructured(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

export function notificationContent(item: Notification): NotificationContent {
  if (item.data !== undefined && item.data !== null) return { kind: "data", value: item.data };
  const text = item.message.trim() || unwrapReminder(item.body);
  if (item.format === "text") return { kind: "text", text };
  // The encoded payload is usually `message`; `body` is the wrapped form the model saw, tried second.
  const candidates = [item.message, unwrapReminder(item.body)].filter((c) => c.trim() !== "");
  let decodedAny = false;
  for (const candidate of candidates) {
    const decoded = tryDecode(candidate, item.format);
    if (decoded.ok && isStructured(decoded.value)) return { kind: "data", value: decoded.value };
    decodedAny ||= decoded.ok;
  }
  return decodedAny ? { kind: "text", text } : { kind: "unparsed", text };
}
