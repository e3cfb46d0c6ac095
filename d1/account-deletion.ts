// The D1 side of deleting an account (worker/account-deletion/). The first step marks the account as
// being deleted and takes away whatever could still act for it or reach its data (its other sessions,
// API tokens, share links, schedules, push subscriptions, reset links, pending sign-in flows); the last
// deletes every row of the account in its shard and rewrites what names it in rows that are not its own
// (password reset links it made, rate-limit keys); the directory's part (its names, the admins' audit log,
// invites) is d1/directory.ts forgetAccount. Each is one batch, which D1 runs as a transaction, and
// each can run again: a deletion cut short is finished by running the steps again.
import { DELETED_USER } from "../protocol";

/** users.status of an account whose deletion has begun: it signs in for nothing but finishing it (identity). */
export const DELETING = "deleting";

/** Every statement of a deletion holds only while the account is marked (a retry after the end does nothing). */
const WHILE_DELETING = "(SELECT status FROM users WHERE id = ?1) = 'deleting'";

/** Tables of the account's that must be gone before its conversations' objects are erased. */
const FIRST_GONE = ["api_tokens", "shares", "schedules", "push_subscriptions", "password_resets", "auth_challenges"];

/**
 * Marks the account as being deleted and deletes what could act for it meanwhile: every session but
 * `keepSession` (the request's own, to finish with), its API tokens, share links (404 from now on),
 * schedules (nothing fires), push subscriptions. False when the account is neither active nor already
 * being deleted.
 */
export async function beginDeletion(d1: D1Database, userId: string, keepSession: string): Promise<boolean> {
  const [marked] = await d1.batch([
    d1
      .prepare(
        `UPDATE users SET status = '${DELETING}' WHERE id = ?1 AND status IN ('active', '${DELETING}') RETURNING id`,
      )
      .bind(userId),
    d1
      .prepare(`DELETE FROM sessions WHERE user_id = ?1 AND token_hash <> ?2 AND ${WHILE_DELETING}`)
      .bind(userId, keepSession),
    ...FIRST_GONE.map((table) =>
      d1.prepare(`DELETE FROM ${table} WHERE user_id = ?1 AND ${WHILE_DELETING}`).bind(userId),
    ),
  ]);
  return !!marked?.results.length;
}

/** Up to `limit` of the user's conversations, subagents' included (their rows carry the user too). */
export async function conversationIdsOf(d1: D1Database, userId: string, limit: number): Promise<string[]> {
  const { results } = await d1
    .prepare("SELECT id FROM conversations WHERE user_id = ? LIMIT ?")
    .bind(userId, limit)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** The rows of conversations whose objects were erased (their search rows, legacy messages cascade). */
export async function deleteConversationRows(d1: D1Database, userId: string, ids: string[]): Promise<void> {
  await d1
    .prepare(
      `DELETE FROM conversations WHERE user_id = ?1 AND id IN (SELECT value FROM json_each(?2)) AND ${WHILE_DELETING}`,
    )
    .bind(userId, JSON.stringify(ids))
    .run();
}

/** Search rows go first, a slice at a time: each fires the FTS index's trigger, too many for one statement. */
const SEARCH_SLICE = 500;

/**
 * Deletes every row of the account in its shard: the users row last, in the same transaction as what
 * names the account in others' rows there (reset links it made as an admin, as `DELETED_USER`).
 * Rate-limit windows keyed by the account's id, its username or its browsers go.
 */
export async function deleteAccountRows(d1: D1Database, account: { id: string; username: string }): Promise<void> {
  const { id, username } = account;
  for (;;) {
    const sliced = await d1
      .prepare(
        `DELETE FROM message_search WHERE id IN (SELECT id FROM message_search WHERE user_id = ?1 LIMIT ${SEARCH_SLICE}) AND ${WHILE_DELETING}`,
      )
      .bind(id)
      .run();
    if (!sliced.meta.changes) break;
  }
  const signInKey = `sign-in:user:${username.toLowerCase()}|`;
  const guarded = (sql: string) => d1.prepare(`${sql} AND ${WHILE_DELETING}`);
  await d1.batch([
    guarded(
      `DELETE FROM rate_limits WHERE (instr(key, ?1) > 0 OR substr(key, 1, length(?2)) = ?2
         OR key IN (SELECT 'sign-in:device:' || token_hash FROM login_devices WHERE user_id = ?1))`,
    ).bind(id, signInKey),
    guarded("UPDATE password_resets SET created_by = ?3 WHERE created_by IN (?1, ?2)").bind(id, username, DELETED_USER),
    // The users row last: every table of the account's cascades from it (conversations, and through
    // them the legacy messages, search rows, shares and schedules; notes, tasks, the library, settings,
    // MCP servers, providers, credentials, passkeys, linked identities, usage).
    d1.prepare(`DELETE FROM users WHERE id = ?1 AND status = '${DELETING}'`).bind(id),
  ]);
}
