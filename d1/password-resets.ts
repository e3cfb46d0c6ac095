// An admin's single-use reset links (a forgotten password): stored as the SHA-256 of the token, expiring,
// taken once by one DELETE … RETURNING (two uses of one link set one password). A new link for a user
// replaces the older ones, so only the latest link works.
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "./client";
import { nowIso } from "./client";
import { passwordResets } from "./schema";

export const RESET_TTL_MS = 24 * 3600_000;

export async function createReset(
  db: Db,
  reset: { tokenHash: string; userId: string; createdBy: string },
  now = Date.now(),
): Promise<string> {
  const expiresAt = new Date(now + RESET_TTL_MS).toISOString();
  await db.batch([
    db.delete(passwordResets).where(eq(passwordResets.userId, reset.userId)),
    db.delete(passwordResets).where(lt(passwordResets.expiresAt, nowIso())),
    db.insert(passwordResets).values({ ...reset, expiresAt }),
  ]);
  return expiresAt;
}

/** Uses up a live reset link: whose account it resets, or undefined (unknown, used, replaced or expired). */
export async function takeReset(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .delete(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), gt(passwordResets.expiresAt, nowIso())))
    .returning({ userId: passwordResets.userId });
  return row?.userId;
}
