// Server-side sessions and API tokens: the secret goes to the client once; D1 keeps only its SHA-256.
import { and, eq, gt, inArray } from "drizzle-orm";
import type { User } from "../../protocol";
import type { Db } from "../db/client";
import { nowIso } from "../db/client";
import { apiTokens, sessions, users } from "../db/schema";
import { randomToken, sha256Hex } from "./crypto";

export const SESSION_COOKIE = "oracle_session";
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomToken("os");
  const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
  await db.insert(sessions).values({ tokenHash: await sha256Hex(token), userId, expiresAt });
  return token;
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token)));
}

/** A session cookie's or bearer token's secret as the tables key it: hashed once per request. */
export async function credentialFor(kind: Credential["kind"], secret: string): Promise<Credential> {
  return { kind, hash: await sha256Hex(secret) };
}

/** Who a live credential belongs to; an API token's last use is recorded on the way. */
export async function userForCredential(db: Db, { kind, hash }: Credential): Promise<User | undefined> {
  const user = { id: users.id, username: users.username };
  if (kind === "session") {
    const rows = await db
      .select(user)
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, nowIso())))
      .limit(1);
    return rows[0];
  }
  const rows = await db
    .select(user)
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hash))
    .limit(1);
  if (rows[0]) await db.update(apiTokens).set({ lastUsedAt: nowIso() }).where(eq(apiTokens.tokenHash, hash));
  return rows[0];
}

/**
 * What a request was signed in with, as a conversation's object remembers it for each socket: the
 * kind and the SHA-256 the tables key it by (never the secret itself).
 */
export interface Credential {
  kind: "session" | "token";
  hash: string;
}

export const credentialKey = (c: Credential) => `${c.kind}:${c.hash}`;

export function parseCredentialKey(key: string | null | undefined): Credential | undefined {
  const match = key?.match(/^(session|token):([0-9a-f]{64})$/);
  return match ? { kind: match[1] as Credential["kind"], hash: match[2] as string } : undefined;
}

/** The keys (credentialKey) of those credentials that are still valid: one query per kind present. */
export async function liveCredentials(db: Db, credentials: readonly Credential[]): Promise<Set<string>> {
  const hashes = (kind: Credential["kind"]) => [
    ...new Set(credentials.filter((c) => c.kind === kind).map((c) => c.hash)),
  ];
  const sessionHashes = hashes("session");
  const tokenHashes = hashes("token");
  const [sessionRows, tokenRows] = await Promise.all([
    sessionHashes.length
      ? db
          .select({ hash: sessions.tokenHash })
          .from(sessions)
          .where(and(inArray(sessions.tokenHash, sessionHashes), gt(sessions.expiresAt, nowIso())))
      : [],
    tokenHashes.length
      ? db.select({ hash: apiTokens.tokenHash }).from(apiTokens).where(inArray(apiTokens.tokenHash, tokenHashes))
      : [],
  ]);
  return new Set([
    ...sessionRows.map((r) => credentialKey({ kind: "session", hash: r.hash })),
    ...tokenRows.map((r) => credentialKey({ kind: "token", hash: r.hash })),
  ]);
}
