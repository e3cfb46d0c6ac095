// The directory (d1/shards.ts, d1/directory-schema.ts): what must be unique across every user, and where
// each user's rows are. Read to sign in by a name (a username, a passkey's credential id, a provider's
// subject) and by an admin acting on an account; written when an account, a passkey or a link is made or
// removed. Never read to authenticate a request: a credential carries its shard.
//
// The directory is written before the shard, and a failed shard write takes the directory row back, so a
// name is never given out twice. A row a crash left between the two names an account that does not exist:
// it signs nobody in (the shard has no such user) and keeps the name taken until an operator deletes it.

import { DELETED_USER } from "../protocol";
import type { Placement, Reader } from "./shards";

/**
 * Claims `username` for a new account in `shard`. With `firstIsAdmin`, the installation's first account is
 * an admin: decided in the same batch, so two first sign-ups at once make one admin. Undefined when taken.
 */
export async function claimUsername(
  dir: D1Database,
  { username, userId, shard }: { username: string } & Placement,
  { firstIsAdmin, listedAdmin }: { firstIsAdmin: boolean; listedAdmin: boolean },
): Promise<{ admin: boolean } | undefined> {
  const [claimed, admin] = await dir.batch([
    dir
      .prepare(
        "INSERT INTO directory_users (username, user_id, shard) VALUES (?1, ?2, ?3) ON CONFLICT(username) DO NOTHING RETURNING user_id",
      )
      .bind(username, userId, shard),
    dir
      .prepare(
        `INSERT INTO directory_admins (user_id, shard)
         SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM directory_users WHERE user_id = ?1)
           AND (?3 = 1 OR (?4 = 1 AND NOT EXISTS (SELECT 1 FROM directory_users WHERE user_id <> ?1)))
         RETURNING user_id`,
      )
      .bind(userId, shard, listedAdmin ? 1 : 0, firstIsAdmin ? 1 : 0),
  ]);
  if (!claimed?.results.length) return undefined;
  return { admin: (admin?.results.length ?? 0) > 0 };
}

/** Takes a claim back (a sign-up refused after the claim, a deleted account): the name is free again. */
export async function releaseUser(dir: D1Database, userId: string): Promise<void> {
  await dir.batch(releaseStatements(dir, userId));
}

const releaseStatements = (dir: D1Database, userId: string) =>
  ["directory_users", "directory_admins", "directory_passkeys", "directory_identities", "directory_push_endpoints"].map(
    (table) => dir.prepare(`DELETE FROM ${table} WHERE user_id = ?`).bind(userId),
  );

/**
 * The directory's part of deleting an account, once its shard holds nothing of it: its names go, and the
 * rows that are others' records keep what they record, naming it as `DELETED_USER`: the admins' audit log
 * (actor, target, the account in its details) and invites (who made or used one). One batch.
 */
export async function forgetAccount(dir: D1Database, { id, username }: { id: string; username: string }) {
  await dir.batch([
    dir
      .prepare(
        `UPDATE admin_audit SET
           actor = CASE WHEN actor = ?2 THEN ?3 ELSE actor END,
           target = CASE WHEN target = ?2 THEN ?3 ELSE target END,
           detail = replace(replace(detail, json_quote(?2), json_quote(?3)), ?1, ?3)
         WHERE actor = ?2 OR target = ?2 OR instr(detail, json_quote(?2)) > 0 OR instr(detail, ?1) > 0`,
      )
      .bind(id, username, DELETED_USER),
    dir.prepare("UPDATE invites SET used_by = ?2 WHERE used_by = ?1").bind(id, DELETED_USER),
    dir.prepare("UPDATE invites SET created_by = ?2 WHERE created_by = ?1").bind(id, DELETED_USER),
    ...releaseStatements(dir, id),
  ]);
}

/** Whether no account exists yet (the next sign-up becomes the admin, whatever SIGNUP says). */
export async function noAccountYet(dir: D1Database): Promise<boolean> {
  return !(await dir.prepare("SELECT 1 FROM directory_users LIMIT 1").first());
}

export async function placementOfUsername(dir: Reader, username: string): Promise<Placement | undefined> {
  return placementBy(dir, "SELECT user_id, shard FROM directory_users WHERE username = ?", username);
}

/** The placement a one-row query finds (its columns: user_id, shard). */
async function placementBy(dir: Reader, query: string, ...keys: string[]): Promise<Placement | undefined> {
  const row = await dir
    .prepare(query)
    .bind(...keys)
    .first<{ user_id: string; shard: number }>();
  return row ? { userId: row.user_id, shard: row.shard } : undefined;
}

export async function placementOfUser(dir: D1Database, userId: string): Promise<Placement | undefined> {
  const row = await dir
    .prepare("SELECT shard FROM directory_users WHERE user_id = ?")
    .bind(userId)
    .first<{ shard: number }>();
  return row ? { userId, shard: row.shard } : undefined;
}

// ---- Passkeys: a discoverable sign-in names only the credential ------------------------------------

export async function placementOfPasskey(dir: D1Database, credentialId: string): Promise<Placement | undefined> {
  return placementBy(dir, "SELECT user_id, shard FROM directory_passkeys WHERE credential_id = ?", credentialId);
}

/** Records a new passkey's credential id; false when another account has it (it is unique across all). */
export async function claimPasskey(dir: D1Database, credentialId: string, owner: Placement): Promise<boolean> {
  const row = await dir
    .prepare(
      "INSERT INTO directory_passkeys (credential_id, user_id, shard) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING RETURNING 1",
    )
    .bind(credentialId, owner.userId, owner.shard)
    .first();
  return !!row;
}

export async function releasePasskey(dir: D1Database, credentialId: string, userId: string): Promise<void> {
  await dir
    .prepare("DELETE FROM directory_passkeys WHERE credential_id = ? AND user_id = ?")
    .bind(credentialId, userId)
    .run();
}

// ---- Identity providers: one subject signs in one account ----------------------------------------

export async function placementOfIdentity(
  dir: D1Database,
  provider: string,
  subject: string,
): Promise<Placement | undefined> {
  const query = "SELECT user_id, shard FROM directory_identities WHERE provider = ? AND subject = ?";
  return placementBy(dir, query, provider, subject);
}

/** Claims a provider's subject for `owner`: the owner's id back when it was free or already theirs. */
export async function claimIdentity(
  dir: D1Database,
  provider: string,
  subject: string,
  owner: Placement,
): Promise<string | undefined> {
  const row = await dir
    .prepare(
      `INSERT INTO directory_identities (provider, subject, user_id, shard) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT DO UPDATE SET user_id = user_id RETURNING user_id`,
    )
    .bind(provider, subject, owner.userId, owner.shard)
    .first<{ user_id: string }>();
  return row?.user_id;
}

/** Frees a subject claimed for `userId`; without `subject`, the user's one link at `provider` (an unlink). */
export async function releaseIdentity(dir: D1Database, provider: string, userId: string, subject?: string) {
  await dir
    .prepare("DELETE FROM directory_identities WHERE provider = ?1 AND user_id = ?2 AND (?3 IS NULL OR subject = ?3)")
    .bind(provider, userId, subject ?? null)
    .run();
}

// ---- Push endpoints: a browser notifies one account --------------------------------------------------

/** Who a browser's push endpoint was last saved by, and its subscription's id. */
export async function pushEndpointOwner(dir: D1Database, endpoint: string) {
  const row = await dir
    .prepare("SELECT user_id, shard, subscription_id FROM directory_push_endpoints WHERE endpoint = ?")
    .bind(endpoint)
    .first<{ user_id: string; shard: number; subscription_id: string }>();
  return row ? { userId: row.user_id, shard: row.shard, subscriptionId: row.subscription_id } : undefined;
}

/** Records `owner` as the endpoint's, under its subscription's id. */
export async function claimPushEndpoint(dir: D1Database, endpoint: string, owner: Placement, subscriptionId: string) {
  await dir
    .prepare(
      `INSERT INTO directory_push_endpoints (endpoint, user_id, shard, subscription_id) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = ?2, shard = ?3, subscription_id = ?4`,
    )
    .bind(endpoint, owner.userId, owner.shard, subscriptionId)
    .run();
}

// ---- The admins: never none left ------------------------------------------------------------------

/** Counts `userId` among the active admins (made an admin, enabled again). */
export async function addAdmin(dir: D1Database, owner: Placement): Promise<void> {
  await dir
    .prepare("INSERT INTO directory_admins (user_id, shard) VALUES (?, ?) ON CONFLICT DO NOTHING")
    .bind(owner.userId, owner.shard)
    .run();
}

/**
 * Takes `userId` off the active admins unless it is the last one: the rule is in the statement's own WHERE,
 * so two admins demoting each other at once leave one. True when removed or not an admin at all.
 */
export async function removeAdminUnlessLast(dir: D1Database, userId: string): Promise<boolean> {
  const [removed, still] = await dir.batch([
    dir
      .prepare(
        "DELETE FROM directory_admins WHERE user_id = ?1 AND EXISTS (SELECT 1 FROM directory_admins WHERE user_id <> ?1) RETURNING 1",
      )
      .bind(userId),
    dir.prepare("SELECT 1 FROM directory_admins WHERE user_id = ?").bind(userId),
  ]);
  return (removed?.results.length ?? 0) > 0 || !still?.results.length;
}
