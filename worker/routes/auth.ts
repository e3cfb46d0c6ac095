// Signup, login, logout and me (docs/protocol.md "Identity").
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { otherSessionsDelete } from "../../d1/account-sessions";
import { placementOfUsername } from "../../d1/directory";
import { takeReset } from "../../d1/password-resets";
import { users } from "../../d1/schema";
import { replica, shardForKey, tokenShard } from "../../d1/shards";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { LoginSchema, ResetPasswordSchema, SignupSchema } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { DUMMY_PASSWORD_HASH, hashPassword, sha256Hex, verifyPassword } from "../auth/crypto";
import { DEVICE_COOKIE, trustedDevice } from "../auth/devices";
import { clearAttempts, reserveAttempt } from "../auth/rate-limit";
import { publicUser, revokeSession, SESSION_COOKIE } from "../auth/sessions";
import { startSession } from "../auth/sign-in";
import { admitSignup, countSignup, hashInvite, openAccount } from "../auth/signup";
import { isAdmin } from "../auth/signup-policy";
import { ApiError, accountDisabled } from "../errors";
import { type AppEnv, assertSameOrigin, currentUser, directory, enterShard, requireUser } from "../middleware/identity";
import { readJson } from "../validate";

export const authRoutes = new Hono<AppEnv>();

/**
 * Requests that carry a cookie must come from the app's own origin, whatever they do (login CSRF,
 * forced logout); a script without cookies may leave Origin out.
 */
export function refuseForeignOrigin(c: Context<AppEnv>) {
  if (c.req.header("Origin") !== undefined || c.req.header("Cookie")) assertSameOrigin(c);
}

authRoutes.post("/signup", async (c) => {
  refuseForeignOrigin(c);
  const { username, password, invite } = await readJson(c, SignupSchema);
  await countSignup(c);
  const admission = await admitSignup(c, username, await hashInvite(invite));
  const account = { id: crypto.randomUUID(), username, passwordHash: await hashPassword(password) };
  const user = await openAccount(c, account, admission);
  await startSession(c, user, { method: "signup" });
  return c.json({ user }, 201);
});

authRoutes.post("/login", async (c) => {
  refuseForeignOrigin(c);
  const { username, password } = await readJson(c, LoginSchema);
  // The directory says where the account is; an unknown name's attempts are counted in the shard the
  // name falls to, so they are throttled alike and no shard holds every name's counters.
  // A replica's copy is right when it finds the name (a user never moves); a miss may be an account made
  // seconds ago, so it is asked again of the primary.
  const placement =
    (await placementOfUsername(replica(directory(c)), username)) ?? (await placementOfUsername(directory(c), username));
  enterShard(c, placement?.shard ?? shardForKey(c.env, username.toLowerCase()));
  const row = placement
    ? (await c.var.db.select().from(users).where(eq(users.id, placement.userId)).limit(1))[0]
    : undefined;
  // Throttled per device where the browser has signed in as this user before, else per address
  // (worker/auth/rate-limit.ts has the policy). Reserved before the password is checked.
  const device = await trustedDevice(c.var.db, getCookie(c, DEVICE_COOKIE), row?.id);
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  const key = device ? `device:${device}` : `user:${username.toLowerCase()}|${address}`;
  const attempt = await reserveAttempt(c.var.db, key);
  if (!attempt.allowed) {
    c.header("Retry-After", String(attempt.retryAfterSeconds));
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    throw new ApiError(429, "rate_limited", `Too many failed sign-ins; try again in ${minutes} min`);
  }
  // Verify against a dummy hash for unknown users (and accounts without a password: passkeys only) so
  // every failure takes the same time and says the same.
  const ok = await verifyPassword(password, row?.passwordHash || DUMMY_PASSWORD_HASH);
  if (!row || !ok) throw new ApiError(401, "unauthorized", "Wrong username or password");
  await clearAttempts(c.var.db, key);
  if (row.status === "disabled") throw accountDisabled();
  const user = publicUser(row, isAdmin(row, c.env));
  await startSession(c, user, { method: "password", knownDevice: device !== undefined });
  return c.json({ user });
});

authRoutes.post("/logout", async (c) => {
  refuseForeignOrigin(c);
  const token = getCookie(c, SESSION_COOKIE);
  const shard = tokenShard(c.env, token);
  if (shard !== undefined) enterShard(c, shard);
  const userId = token && shard !== undefined ? await revokeSession(c.var.db, token) : undefined;
  // The session's open sockets are closed before the answer (durable-objects/user-changes.ts).
  if (userId && shard !== undefined) await tellUserChanged(c.env, { userId, shard }, "credentials");
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.body(null, 204);
});

/**
 * An admin's reset link: a new password, every session and socket of the account ended, and a session
 * for the browser that used it. The link works once.
 */
authRoutes.post("/reset", async (c) => {
  refuseForeignOrigin(c);
  const { token, new_password } = await readJson(c, ResetPasswordSchema);
  const passwordHash = await hashPassword(new_password);
  // The link names the shard it is kept in (worker/routes/admin.ts).
  const shard = tokenShard(c.env, token);
  if (shard === undefined) throw new ApiError(403, "confirmation_failed", RESET_GONE);
  enterShard(c, shard);
  const userId = await takeReset(c.var.db, await sha256Hex(token));
  if (!userId) throw new ApiError(403, "confirmation_failed", RESET_GONE);
  const [[row]] = await c.var.db.batch([
    c.var.db.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning(),
    otherSessionsDelete(c.var.db, userId, undefined),
  ]);
  if (!row) throw new ApiError(403, "confirmation_failed", RESET_GONE);
  await tellUserChanged(c.env, { userId, shard }, "credentials");
  if (row.status === "disabled") throw accountDisabled();
  const user = publicUser(row, isAdmin(row, c.env));
  await startSession(c, user, { method: "reset" });
  return c.json({ user });
});

const RESET_GONE = "This reset link does not work any more: it was used, replaced or has expired. Ask for a new one";

export const meRoutes = new Hono<AppEnv>();
meRoutes.get("/", requireUser, (c) => c.json({ user: currentUser(c) }));
