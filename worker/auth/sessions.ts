// Server-side sessions and API tokens: the secret goes to the client once; D1 keeps only its SHA-256.
import { and, eq, gt, sql } from "drizzle-orm";
import { SESSION_TOUCH_MS } from "../../d1/account-sessions";
import type { Db } from "../../d1/client";
import { nowIso } from "../../d1/client";
import type { Credential } from "../../d1/credentials";
import { apiTokens, sessions, users } from "../../d1/schema";
import type { Placement } from "../../d1/shards";
import type { User } from "../../protocol";
import { randomToken, sha256Hex } from "./crypto";

export const SESSION_COOKIE = "oracle_session";
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

/** How a session was signed in, as Settings → Account shows it: `oidc:<provider>` for an identity provider. */
export type SignInMethod = "password" | "passkey" | "signup" | "reset" | `oidc:${string}`;

/** What a session records of where it started (sign-in.ts fills it from the request). */
export interface SessionOrigin {
  method: SignInMethod;
  userAgent: string | null;
  address: string | null;
  place: string | null;
}

export async function createSession(
  db: Db,
  { userId, shard }: Placement,
  origin: SessionOrigin,
): Promise<{ token: string; id: string }> {
  // The cookie names its shard, so every later request finds the session without the directory.
  const token = randomToken("os", shard);
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
  await db
    .insert(sessions)
    .values({ tokenHash: await sha256Hex(token), id, userId, expiresAt, lastUsedAt: nowIso(), ...origin });
  return { token, id };
}

/** Deletes the session; returns whose it was, if it existed. */
export async function revokeSession(db: Db, token: string): Promise<string | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, await sha256Hex(token)))
    .returning({ userId: sessions.userId });
  return row?.userId;
}

/** A session cookie's or bearer token's secret as the tables key it: hashed once per request. */
export async function credentialFor(kind: Credential["kind"], secret: string): Promise<Credential> {
  return { kind, hash: await sha256Hex(secret) };
}

/** The account behind a credential, as identity needs it. */
export interface SignedIn {
  id: string;
  username: string;
  role: string;
  status: string;
  lastActiveAt: string | null;
  /** The session's last recorded use (d1/account-sessions.ts touchSession); null for a token. */
  sessionUsedAt: string | null;
}

/** What the API says of the signed-in user (protocol User): the status while pending, `admin` for an admin. */
export const publicUser = (account: Pick<SignedIn, "id" | "username" | "status">, admin: boolean): User => ({
  id: account.id,
  username: account.username,
  ...(account.status === "pending" ? { status: "pending" as const } : {}),
  ...(admin ? { admin: true as const } : {}),
});

/**
 * Who a live credential belongs to; an API token's last use is recorded on the way. A disabled account's
 * credentials were deleted when it was disabled; one that a race left behind still signs nobody in.
 */
export async function userForCredential(db: Db, credential: Credential): Promise<SignedIn | undefined> {
  const account = await accountForCredential(db, credential);
  return account?.status === "disabled" ? undefined : account;
}

async function accountForCredential(db: Db, { kind, hash }: Credential): Promise<SignedIn | undefined> {
  const user = {
    id: users.id,
    username: users.username,
    role: users.role,
    status: users.status,
    lastActiveAt: users.lastActiveAt,
  };
  if (kind === "session") {
    const rows = await db
      .select({ ...user, sessionUsedAt: sessions.lastUsedAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, nowIso())))
      .limit(1);
    return rows[0];
  }
  const [row] = await db
    .select({ ...user, sessionUsedAt: sql<null>`NULL`, tokenUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hash))
    .limit(1);
  if (!row) return undefined;
  const { tokenUsedAt, ...account } = row;
  // The last use is written at most every 5 minutes, as a session's: a script's calls are not a write each.
  if (!tokenUsedAt || Date.now() - Date.parse(tokenUsedAt) >= SESSION_TOUCH_MS)
    await db.update(apiTokens).set({ lastUsedAt: nowIso() }).where(eq(apiTokens.tokenHash, hash));
  return account;
}
