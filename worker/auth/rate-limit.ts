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
// - The counting is the generic fixed-window limiter's (d1/rate-limits.ts: one atomic upsert, rows of
//   ended windows pruned in the same batch), under keys of their own (`sign-in:`).
import type { Db } from "../../d1/client";
import { forget, hit, type RateDecision, type RateLimit } from "../../d1/rate-limits";

export const MAX_ATTEMPTS = 5;
export const WINDOW_SECONDS = 15 * 60;
const SIGN_IN: RateLimit = { max: MAX_ATTEMPTS, windowSeconds: WINDOW_SECONDS };
const keyOf = (key: string) => `sign-in:${key}`;

export type Attempt = RateDecision;

/** Counts one attempt for `key`; refused when the window already holds MAX_ATTEMPTS failures. */
export function reserveAttempt(db: Db, key: string, now = Date.now()): Promise<Attempt> {
  return hit(db, keyOf(key), SIGN_IN, now);
}

/** A successful sign-in starts the key afresh. */
export function clearAttempts(db: Db, key: string): Promise<void> {
  return forget(db, keyOf(key));
}
