// Credentials as the Worker and each conversation's object share them, and which are still live (one
// D1 round trip, or part of the turn's settings batch): how revocation reaches open sockets.
import { and, gt, inArray } from "drizzle-orm";
import type { Db } from "./client";
import { nowIso } from "./client";
import { apiTokens, sessions } from "./schema";

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

/**
 * The two queries (sessions, tokens) that find which of these credentials are still valid, for a batch
 * of their own or a larger one (user-settings.ts loadTurnStart); `liveKeys` reads their rows.
 */
export function liveCredentialQueries(db: Db, credentials: readonly Credential[]) {
  const hashes = (kind: Credential["kind"]) => [
    ...new Set(credentials.filter((c) => c.kind === kind).map((c) => c.hash)),
  ];
  return [
    db
      .select({ hash: sessions.tokenHash, expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(and(inArray(sessions.tokenHash, hashes("session")), gt(sessions.expiresAt, nowIso()))),
    db
      .select({ hash: apiTokens.tokenHash })
      .from(apiTokens)
      .where(inArray(apiTokens.tokenHash, hashes("token"))),
  ] as const;
}

/** When the first of these live sessions expires (an ISO time), from liveCredentialQueries' rows. */
export const firstExpiry = (sessionRows: { expiresAt: string }[]): string | undefined =>
  sessionRows.map((r) => r.expiresAt).sort()[0];

/** The keys (credentialKey) of the live credentials, from liveCredentialQueries' rows. */
export function liveKeys(sessionRows: { hash: string }[], tokenRows: { hash: string }[]): Set<string> {
  return new Set([
    ...sessionRows.map((r) => credentialKey({ kind: "session", hash: r.hash })),
    ...tokenRows.map((r) => credentialKey({ kind: "token", hash: r.hash })),
  ]);
}

/** The keys (credentialKey) of those credentials that are still valid: one D1 round trip. */
export async function liveCredentials(db: Db, credentials: readonly Credential[]): Promise<Set<string>> {
  if (!credentials.length) return new Set();
  const [sessionRows, tokenRows] = await db.batch(liveCredentialQueries(db, credentials));
  return liveKeys(sessionRows, tokenRows);
}
