// Failed-login throttling: at most MAX_FAILURES per (username, address) in a fixed window, kept in D1
// so every isolate of the Worker sees the same count.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { loginFailures } from "../db/schema";

export const MAX_FAILURES = 5;
export const WINDOW_SECONDS = 15 * 60;

const current = (windowStart: number, now: number) => now - windowStart < WINDOW_SECONDS * 1000;

/** Seconds until the caller may try again, or 0 when not limited. */
export async function retryAfter(db: Db, key: string, now = Date.now()): Promise<number> {
  const row = (await db.select().from(loginFailures).where(eq(loginFailures.key, key)).limit(1))[0];
  if (!row || !current(row.windowStart, now) || row.count < MAX_FAILURES) return 0;
  return Math.ceil((row.windowStart + WINDOW_SECONDS * 1000 - now) / 1000);
}

export async function recordFailure(db: Db, key: string, now = Date.now()): Promise<void> {
  const windowFloor = now - WINDOW_SECONDS * 1000;
  await db
    .insert(loginFailures)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        count: sql`CASE WHEN ${loginFailures.windowStart} < ${windowFloor} THEN 1 ELSE ${loginFailures.count} + 1 END`,
        windowStart: sql`CASE WHEN ${loginFailures.windowStart} < ${windowFloor} THEN ${now} ELSE ${loginFailures.windowStart} END`,
      },
    });
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
