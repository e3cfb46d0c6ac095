// Invite links (SIGNUP=invite): made by an admin, single-use, expiring, stored by the SHA-256 of their
// token. Using one is a single conditional update, so two sign-ups with the same link make one account.
import type { Invite } from "../protocol";
import type { Reader } from "./shards";

interface InviteRow {
  id: string;
  note: string;
  created_at: string;
  expires_at: string;
  created_by: string;
  used_at: string | null;
  used_by: string | null;
}

export async function createInvite(
  d1: D1Database,
  invite: { id: string; tokenHash: string; note: string; createdBy: string; expiresAt: string },
): Promise<Invite> {
  const row = await d1
    .prepare(
      `INSERT INTO invites (id, token_hash, note, created_by, expires_at) VALUES (?, ?, ?, ?, ?)
       RETURNING id, note, created_at, expires_at, created_by, used_at, used_by`,
    )
    .bind(invite.id, invite.tokenHash, invite.note, invite.createdBy, invite.expiresAt)
    .first<InviteRow>();
  if (!row) throw new Error("invite not stored");
  return row;
}

/** Newest first, with the usernames of who made and who used each (the directory has every account's). */
export async function listInvites(d1: Reader, limit = 100): Promise<Invite[]> {
  const { results } = await d1
    .prepare(
      `SELECT i.id, i.note, i.created_at, i.expires_at, coalesce(c.username, i.created_by) AS created_by,
         i.used_at, coalesce(u.username, i.used_by) AS used_by
       FROM invites i LEFT JOIN directory_users c ON c.user_id = i.created_by
         LEFT JOIN directory_users u ON u.user_id = i.used_by
       ORDER BY i.created_at DESC LIMIT ?`,
    )
    .bind(limit)
    .all<InviteRow>();
  return results;
}

/** Claims an unused, unexpired invite for `userId`; false when there is none such. */
export async function claimInvite(d1: D1Database, tokenHash: string, userId: string): Promise<boolean> {
  const now = new Date().toISOString();
  const row = await d1
    .prepare(
      "UPDATE invites SET used_by = ?2, used_at = ?3 WHERE token_hash = ?1 AND used_by IS NULL AND expires_at > ?3 RETURNING id",
    )
    .bind(tokenHash, userId, now)
    .first();
  return !!row;
}

/** Gives a claimed invite back (the account it was claimed for could not be made). */
export async function releaseInvite(d1: D1Database, tokenHash: string, userId: string): Promise<void> {
  await d1
    .prepare("UPDATE invites SET used_by = NULL, used_at = NULL WHERE token_hash = ? AND used_by = ?")
    .bind(tokenHash, userId)
    .run();
}

/** Revokes an unused invite (deletes it); false when there is none such. */
export async function revokeInvite(d1: D1Database, id: string): Promise<InviteRow | undefined> {
  const row = await d1
    .prepare(
      "DELETE FROM invites WHERE id = ? AND used_by IS NULL RETURNING id, note, created_at, expires_at, created_by, used_at, used_by",
    )
    .bind(id)
    .first<InviteRow>();
  return row ?? undefined;
}
