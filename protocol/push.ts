// Notifications when a turn ends out of sight (docs/protocol.md "Finish notifications"): a browser's web
// push subscription, what the push message carries, and the words a notification says. The words are
// one rule for the Worker's push and the open tab's own notification alike: by default they hold no
// content at all (no title, no answer), since a lock screen shows them to whoever holds the phone; the
// answer's text and the conversation's title only where the user chose it for that device.
import { z } from "zod";

/** Push subscriptions per user (browsers and devices). */
export const MAX_PUSH_SUBSCRIPTIONS = 20;

/** base64url as PushSubscription.toJSON() writes it; padding, if any, dropped before the length is checked. */
const base64url = (bytes: number, what: string) =>
  z
    .string()
    .max(200)
    .transform((s) => s.replace(/=+$/, ""))
    .pipe(
      z
        .string()
        .regex(new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`), `${what}: ${bytes} bytes, base64url`),
    );

export const PushSubscriptionInputSchema = z.strictObject({
  /** The push service's URL for this browser: https (http only on loopback where the Worker allows it). */
  endpoint: z.string().min(1).max(2000),
  keys: z.strictObject({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65, "p256dh").refine((s) => s.startsWith("B"), "p256dh: an uncompressed P-256 point"),
    /** The browser's auth secret (16 bytes). */
    auth: base64url(16, "auth"),
  }),
  /** Whether this device's notifications show the conversation's title and the answer's text (default no). */
  show_content: z.boolean().default(false),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInputSchema>;

export const PushSubscriptionPatchSchema = z.strictObject({ show_content: z.boolean() });

export const PushSubscriptionSchema = z.object({
  id: z.string(),
  endpoint: z.string(),
  show_content: z.boolean(),
  created_at: z.string(),
});
export type PushSubscription = z.infer<typeof PushSubscriptionSchema>;

/** `GET /api/push`: the key to subscribe with (null: the operator has not set up push) and the user's subscriptions. */
export const PushSettingsSchema = z.object({
  public_key: z.string().nullable(),
  subscriptions: z.array(PushSubscriptionSchema),
});
export type PushSettings = z.infer<typeof PushSettingsSchema>;

/** What a push message's (encrypted) payload holds: the service worker shows `title` and `body`, a click opens `url`. */
export const PushMessageSchema = z.object({
  type: z.literal("turn_ended"),
  conversation_id: z.string(),
  /** The conversation's page on the app's origin (`/c/<id>`). */
  url: z.string(),
  title: z.string(),
  body: z.string(),
  /** Notifications with the same tag replace each other: one per conversation. */
  tag: z.string(),
});
export type PushMessage = z.infer<typeof PushMessageSchema>;

/** The answer's text in a notification: at most this many characters. */
export const NOTICE_TEXT_MAX = 180;

export interface FinishedTurn {
  conversation_id: string;
  /** How the turn ended (`response_complete.termination_reason`). */
  reason: string;
  /** The conversation's title and the final answer (content without its note): shown only with `show_content`. */
  title?: string;
  answer?: string;
}

/** A final answer's own text: its content without the product's note after it ("\n\n— …"). */
export function answerText(message: { content: string; note?: string }): string {
  const { content, note } = message;
  if (!note) return content;
  if (content === note) return "";
  const suffix = `\n\n— ${note}`;
  return content.endsWith(suffix) ? content.slice(0, -suffix.length) : content;
}

/** The answer as a notification's line: markdown marks out, one line, cut short. */
export function noticeText(answer: string): string {
  const plain = answer
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/[`*_#>|~]+/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > NOTICE_TEXT_MAX ? `${plain.slice(0, NOTICE_TEXT_MAX - 1).trimEnd()}…` : plain;
}

/** Whether a turn's end is worth a notification: not one somebody stopped (they know). */
export const noticeWorthy = (reason: string | undefined): boolean => !!reason && reason !== "user_cancelled";

/** What the notification says of a finished turn; with `showContent` false, nothing the user or the model wrote. */
export function finishNotice(turn: FinishedTurn, showContent: boolean): PushMessage {
  const answered = turn.reason === "completed";
  const plain = answered ? "Your answer is ready." : "A turn ended without a full answer. Open it to see why.";
  const text = showContent && turn.answer ? noticeText(turn.answer) : "";
  return {
    type: "turn_ended",
    conversation_id: turn.conversation_id,
    url: `/c/${encodeURIComponent(turn.conversation_id)}`,
    title: (showContent && turn.title?.trim()) || "Oracle",
    body: text || plain,
    tag: `turn-${turn.conversation_id}`,
  };
}
