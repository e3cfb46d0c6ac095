// Asking a signed-in user again who they are, before what cannot be undone or locks other devices out
// (a new password, deleting the account): their current password, throttled as sign-ins are, or a
// passkey's assertion for a single-use `confirm` challenge (passkey-confirm.ts).
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { users } from "../../d1/schema";
import type { Confirm } from "../../protocol";
import { ApiError } from "../errors";
import type { AppEnv } from "../middleware/identity";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "./crypto";
import { confirmWithPasskey } from "./passkey-confirm";
import { clearAttempts, reserveAttempt } from "./rate-limit";

export const CONFIRM_FAILED = "That is not your current password";

/** Resolves when `confirm` proves the caller is `userId`; else 403 `confirmation_failed` (429 when throttled). */
export async function confirmIdentity(c: Context<AppEnv>, userId: string, confirm: Confirm): Promise<void> {
  if ("passkey" in confirm) return confirmWithPasskey(c, userId, confirm.passkey);
  const key = `confirm:${userId}`;
  const attempt = await reserveAttempt(c.var.db, key);
  if (!attempt.allowed) {
    c.header("Retry-After", String(attempt.retryAfterSeconds));
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    throw new ApiError(429, "rate_limited", `Too many wrong passwords; try again in ${minutes} min`);
  }
  const [row] = await c.var.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  // An account without a password is checked against the dummy hash: the same time, the same refusal.
  const ok = await verifyPassword(confirm.password, row?.hash || DUMMY_PASSWORD_HASH);
  if (!ok || !row?.hash) throw new ApiError(403, "confirmation_failed", CONFIRM_FAILED);
  await clearAttempts(c.var.db, key);
}
