// Server-side sessions and API tokens: the secret goes to the client once; D1 keeps only its SHA-256.
import { and, eq, gt } from "drizzle-orm";
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

export async function userForSession(db: Db, token: string): Promise<User | undefined> {
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, await sha256Hex(token)), gt(sessions.expiresAt, nowIso())))
    .limit(1);
  return rows[0];
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, await sha256Hex(token)));
}

export async function userForApiToken(db: Db, token: string): Promise<User | undefined> {
  const hash = await sha256Hex(token);
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hash))
    .limit(1);
  if (rows[0]) await db.update(apiTokens).set({ lastUsedAt: nowIso() }).where(eq(apiTokens.tokenHash, hash));
  return rows[0];
}
