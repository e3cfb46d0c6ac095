// A route's rate limit (d1/rate-limits.ts, in the caller's shard) as a 429 with Retry-After, like sign-in's:
// share links (protocol/share.ts) and uploads (protocol/files.ts).
import type { Context } from "hono";
import { hit, type RateLimit } from "../d1/rate-limits";
import { ApiError } from "./errors";
import type { AppEnv } from "./middleware/identity";

/** Counts one hit for `key`; throws 429 `rate_limited` (with Retry-After) once the window is full. */
export async function enforce(c: Context<AppEnv>, key: string, limit: RateLimit, what: string): Promise<void> {
  const decision = await hit(c.var.db, key, limit);
  if (decision.allowed) return;
  c.header("Retry-After", String(decision.retryAfterSeconds));
  const wait =
    decision.retryAfterSeconds < 120
      ? `${decision.retryAfterSeconds} s`
      : `${Math.ceil(decision.retryAfterSeconds / 60)} min`;
  throw new ApiError(429, "rate_limited", `Too many ${what}; try again in ${wait}`);
}
