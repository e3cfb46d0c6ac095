// A generic fixed-window rate limiter on D1: the share links' limits (protocol/share.ts) and sign-in
// throttling (worker/auth/rate-limit.ts, whose policy decides the keys and gives a success's back). A hit is counted and read back by one
// upsert, which D1 runs atomically: parallel requests each get a distinct count, so a burst is refused
// from the (max + 1)th on exactly as the same requests sent one after another would be. A refused hit
// counts too, but never extends the window. Rows of ended windows are pruned in the same batch.
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { rateLimits } from "./schema";

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one hit for `key` under `limit`; refused once the current window already holds `max` hits. */
export async function hit(db: Db, key: string, limit: RateLimit, now = Date.now()): Promise<RateDecision> {
  const ended = sql`${rateLimits.resetAt} <= ${now}`;
  const resetAt = now + limit.windowSeconds * 1000;
  const [, rows] = await db.batch([
    db.delete(rateLimits).where(sql`${ended} AND ${rateLimits.key} <> ${key}`),
    db
      .insert(rateLimits)
      .values({ key, count: 1, resetAt })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${ended} THEN 1 ELSE ${rateLimits.count} + 1 END`,
          resetAt: sql`CASE WHEN ${ended} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
        },
      })
      .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt }),
  ]);
  const row = rows[0];
  if (!row || row.count <= limit.max) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((row.resetAt - now) / 1000)) };
}

/** Starts `key` afresh (a successful sign-in). */
export async function forget(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
