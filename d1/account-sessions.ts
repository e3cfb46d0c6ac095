// A user's sessions as Settings → Account lists and ends them: by their public id (the token's hash never
// leaves the server), one at a time or all but the one in use. Ending sessions here deletes their rows;
// the caller tells the user's live conversations (tellUserChanged "credentials"), which close the
// sessions' sockets before the answer.
import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { Db } from "./client";
import { nowIso } from "./client";
import { sessions } from "./schema";

/** A session's last use is written at most this often (every request would be a D1 write). */
export const SESSION_TOUCH_MS = 5 * 60_000;

export interface SessionRow {
  id: string | null;
  tokenHash: string;
  userAgent: string | null;
  address: string | null;
  place: string | null;
  method: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}

/** The user's live sessions, the most recently used first. */
export function listSessions(db: Db, userId: string): Promise<SessionRow[]> {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      userAgent: sessions.userAgent,
      address: sessions.address,
      place: sessions.place,
      method: sessions.method,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, nowIso())))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
}

/** Ends one of the user's sessions; returns its token hash, or undefined when it is not theirs (or gone). */
export async function endSession(db: Db, userId: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ hash: sessions.tokenHash });
  return row?.hash;
}

/** The statement that ends every session of the user but the one whose hash is `keep` (for a batch). */
export function otherSessionsDelete(db: Db, userId: string, keep: string | undefined) {
  const others = keep ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, keep)) : eq(sessions.userId, userId);
  return db.delete(sessions).where(others).returning({ hash: sessions.tokenHash });
}

/** Ends every session of the user but the one whose hash is `keep`; returns how many ended. */
export async function endOtherSessions(db: Db, userId: string, keep: string | undefined): Promise<number> {
  return (await otherSessionsDelete(db, userId, keep)).length;
}

/** Records a session's use, at most every SESSION_TOUCH_MS. */
export async function touchSession(db: Db, hash: string, lastUsedAt: string | null, now = Date.now()) {
  if (lastUsedAt && now - Date.parse(lastUsedAt) < SESSION_TOUCH_MS) return;
  await db
    .update(sessions)
    .set({ lastUsedAt: new Date(now).toISOString() })
    .where(eq(sessions.tokenHash, hash));
}
