// Sends one web push message (RFC 8030) to a browser's push service: the payload encrypted for that
// browser (core/push-encryption.ts), the operator's VAPID token (core/vapid.ts), through the guarded
// fetch like every request the Worker makes to a URL from outside (the endpoint came from a browser).
import { fromBase64Url } from "../core/base64";
import { encryptPushPayload } from "../core/push-encryption";
import { type VapidKeys, vapidAuthorization } from "../core/vapid";

export interface PushTarget {
  endpoint: string;
  /** base64url, as the browser gave them. */
  p256dh: string;
  auth: string;
}

/** `sent`: the push service took it; `gone`: the subscription no longer exists (404, 410); `failed`: anything else. */
export type PushOutcome = "sent" | "gone" | "failed";

/** How long the push service keeps a message for a device that is offline: a day. */
const TTL_SECONDS = 24 * 3600;

export async function sendWebPush(
  fetcher: typeof fetch,
  target: PushTarget,
  payload: string,
  vapid: VapidKeys,
  topic?: string,
): Promise<PushOutcome> {
  try {
    const keys = { p256dh: fromBase64Url(target.p256dh), auth: fromBase64Url(target.auth) };
    const body = await encryptPushPayload(new TextEncoder().encode(payload), keys);
    const headers: Record<string, string> = {
      Authorization: await vapidAuthorization(target.endpoint, vapid),
      "Content-Encoding": "aes128gcm",
      "Content-Type": "application/octet-stream",
      TTL: String(TTL_SECONDS),
      Urgency: "normal",
    };
    // A message not yet delivered is replaced by a newer one of the same topic (RFC 8030 §5.4).
    if (topic && /^[A-Za-z0-9_-]{1,32}$/.test(topic)) headers.Topic = topic;
    const response = await fetcher(target.endpoint, { method: "POST", headers, body });
    await response.body?.cancel();
    if (response.ok) return "sent";
    if (response.status === 404 || response.status === 410) return "gone";
    console.warn("web push: the push service answered", response.status, new URL(target.endpoint).origin);
    return "failed";
  } catch (error) {
    console.warn("web push: not sent", new URL(target.endpoint).origin, error);
    return "failed";
  }
}
