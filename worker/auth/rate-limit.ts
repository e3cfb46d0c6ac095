// Sign-in throttling (README "Sign-in limits"). The policy, after OWASP's Authentication and
// Credential Stuffing cheat sheets:
// - Attempts are counted per key in a fixed window: a username tried from one client address, or,
//   for a browser the user has signed in from before (a device cookie, see devices.ts), that device.
//   So failures from other addresses, or from an attacker sharing the user's address, never refuse
//   the right password on the user's own device.
// - An attempt is reserved (counted) *before* the password is checked, in one atomic statement, and
//   only a success gives it back. A burst of parallel requests therefore gets exactly as many
//   guesses as the same requests sent one after another: the (MAX_ATTEMPTS + 1)th is refused
//   without its password ever being verified. A success clears the key, as it would sequentially.
// - An IPv6 client is counted by its /64 (client-address.ts).
// - Rows of windows that have passed are deleted by the same statement batch, so the table holds at
//   most the keys tried in the last window.
import { sql } from "drizzle-orm";
import type { Db } from "../../d1/client";
import { loginFailures } from "../../d1/schema";

export const MAX_ATTEMPTS = 5;
export const WINDOW_SECONDS = 15 * 60;

export type Attempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts one attempt for `key`; refused when the window already holds MAX_ATTEMPTS failures. */
export async function reserveAttempt(db: Db, key: string, now = Date.now()): Promise<Attempt> {
  const floor = now - WINDOW_SECONDS * 1000;
  const stale = sql`${loginFailures.windowStart} < ${floor}`;
  const [, rows] = await db.batch([
    db.delete(loginFailures).where(sql`${stale} AND ${loginFailures.key} <> ${key}`),
    db
      .insert(loginFailures)
      .values({ key, count: 1, windowStart: now })
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          count: sql`CASE WHEN ${stale} THEN 1 ELSE ${loginFailures.count} + 1 END`,
          windowStart: sql`CASE WHEN ${stale} THEN ${now} ELSE ${loginFailures.windowStart} END`,
        },
      })
      .returning({ count: loginFailures.count, windowStart: loginFailures.windowStart }),
  ]);
  const row = rows[0];
  if (!row || row.count <= MAX_ATTEMPTS) return { allowed: true };
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((row.windowStart + WINDOW_SECONDS * 1000 - now) / 1000)),
  };
}

/** A successful sign-in starts the key afresh. */
export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(loginFailures).where(sql`${loginFailures.key} = ${key}`);
}
