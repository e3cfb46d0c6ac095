// Signup, login, logout and me (docs/protocol.md "Identity").
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { users } from "../../d1/schema";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { LoginSchema, SignupSchema } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../auth/crypto";
import { DEVICE_COOKIE, trustedDevice } from "../auth/devices";
import { clearAttempts, reserveAttempt } from "../auth/rate-limit";
import { publicUser, revokeSession, SESSION_COOKIE } from "../auth/sessions";
import { startSession } from "../auth/sign-in";
import { admitSignup, countSignup, hashInvite, openAccount } from "../auth/signup";
import { isAdmin } from "../auth/signup-policy";
import { ApiError } from "../errors";
import { type AppEnv, assertSameOrigin, currentUser, requireUser } from "../middleware/identity";
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
  const row = (await c.var.db.select().from(users).where(eq(users.username, username)).limit(1))[0];
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
  // Verify against a dummy hash for unknown users so both failures take the same time and say the same.
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!row || !ok) throw new ApiError(401, "unauthorized", "Wrong username or password");
  await clearAttempts(c.var.db, key);
  if (row.status === "disabled")
    throw new ApiError(403, "account_disabled", "This account has been disabled by an administrator");
  const user = publicUser(row, isAdmin(row, c.env));
  await startSession(c, user, { method: "password", knownDevice: device !== undefined });
  return c.json({ user });
});

authRoutes.post("/logout", async (c) => {
  refuseForeignOrigin(c);
  const token = getCookie(c, SESSION_COOKIE);
  const userId = token ? await revokeSession(c.var.db, token) : undefined;
  // The session's open sockets are closed before the answer (durable-objects/user-changes.ts).
  if (userId) await tellUserChanged(c.env, userId, "credentials");
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.body(null, 204);
});

export const meRoutes = new Hono<AppEnv>();
meRoutes.get("/", requireUser, (c) => c.json({ user: currentUser(c) }));
