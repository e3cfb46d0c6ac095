// Browsers' web push subscriptions (docs/protocol.md "Finish notifications"). Every statement of the
// routes is scoped by user id; the conversation object reads the user's live ones to send a turn's
// end. An endpoint is one browser's: saving it moves it to the user and session saving it (a browser
// someone else signed in on before gets only its current user's notifications).
import { and, asc, eq, gt } from "drizzle-orm";
import { MAX_PUSH_SUBSCRIPTIONS, type PushSubscription, type PushSubscriptionInput } from "../protocol/push";
import { database, nowIso } from "./client";
import { pushSubscriptions, sessions } from "./schema";

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export const toPushSubscription = (row: PushSubscriptionRow): PushSubscription => ({
  id: row.id,
  endpoint: row.endpoint,
  show_content: row.showContent,
  created_at: row.createdAt,
});

export async function listPushSubscriptions(d1: D1Database, userId: string): Promise<PushSubscription[]> {
  const rows = await database(d1)
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  return rows.map(toPushSubscription);
}

/**
 * Saves the browser's subscription for the user under the session (`sessionHash`), new or again (the
 * same endpoint: its keys and choice replaced, its owner now this user). One statement, so the cap
 * holds under concurrent saves; undefined when the user has MAX_PUSH_SUBSCRIPTIONS others already.
 */
export async function savePushSubscription(
  d1: D1Database,
  userId: string,
  sessionHash: string,
  input: PushSubscriptionInput,
  /** The id it had in another shard (a shared browser's endpoint moving to this user). */
  id: string = crypto.randomUUID(),
): Promise<{ subscription: PushSubscription; created: boolean } | undefined> {
  const row = await d1
    .prepare(
      `INSERT INTO push_subscriptions (id, user_id, session_hash, endpoint, p256dh, auth, show_content, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE (SELECT count(*) FROM push_subscriptions WHERE user_id = ?2 AND endpoint <> ?4) < ?9
       ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, session_hash = excluded.session_hash,
         p256dh = excluded.p256dh, auth = excluded.auth, show_content = excluded.show_content
       RETURNING id, created_at`,
    )
    .bind(
      id,
      userId,
      sessionHash,
      input.endpoint,
      input.keys.p256dh,
      input.keys.auth,
      input.show_content ? 1 : 0,
      nowIso(),
      MAX_PUSH_SUBSCRIPTIONS,
    )
    .first<{ id: string; created_at: string }>();
  if (!row) return undefined;
  const subscription = {
    id: row.id,
    endpoint: input.endpoint,
    show_content: input.show_content,
    created_at: row.created_at,
  };
  return { subscription, created: row.id === id };
}

/** Changes whether the user's subscription shows content; undefined when the user has no such subscription. */
export async function setPushShowContent(
  d1: D1Database,
  userId: string,
  id: string,
  showContent: boolean,
): Promise<PushSubscription | undefined> {
  const [row] = await database(d1)
    .update(pushSubscriptions)
    .set({ showContent })
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning();
  return row && toPushSubscription(row);
}

/** Deletes the user's subscription; false when they have no such subscription. */
export async function deletePushSubscription(d1: D1Database, userId: string, id: string): Promise<boolean> {
  const rows = await database(d1)
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** The subscriptions a turn's end is sent to: the user's, on devices whose session is still live. */
export async function livePushSubscriptions(d1: D1Database, userId: string): Promise<PushSubscriptionRow[]> {
  const rows = await database(d1)
    .select({ subscription: pushSubscriptions })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.tokenHash, pushSubscriptions.sessionHash))
    .where(and(eq(pushSubscriptions.userId, userId), gt(sessions.expiresAt, nowIso())));
  return rows.map((r) => r.subscription);
}

/** The push service said the subscription is gone (404, 410): it is forgotten. */
export async function forgetPushEndpoint(d1: D1Database, userId: string, endpoint: string): Promise<boolean> {
  const gone = await database(d1)
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}
