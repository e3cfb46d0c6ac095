// A notification's data decoded for people (see notification-content.ts): the TOON or JSON after the
// headline, else the structured `data` sent beside it. Its own module because the TOON decoder is
// loaded only with a notification that has data to show (components/notification-body/data.tsx).
import { decode } from "@toon-format/toon";
import { type Notification, type NotificationContent, payloadText } from "./notification-content";

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
