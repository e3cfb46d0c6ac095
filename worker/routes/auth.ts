// Signup, login, logout and me (docs/protocol.md "Identity").
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { users } from "../../d1/schema";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { CredentialsSchema, LoginSchema, type User } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../auth/crypto";
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS, issueDevice, trustedDevice } from "../auth/devices";
import { clearAttempts, reserveAttempt } from "../auth/rate-limit";
import { createSession, revokeSession, SESSION_COOKIE, SESSION_TTL_SECONDS } from "../auth/sessions";
import { ApiError } from "../errors";
import { type AppEnv, assertSameOrigin, currentUser, requireUser } from "../middleware/identity";
import { readJson } from "../validate";

export const authRoutes = new Hono<AppEnv>();

const cookieOptions = (c: Context<AppEnv>, maxAge: number, path = "/") =>
  ({ httpOnly: true, sameSite: "Lax", path, secure: new URL(c.req.url).protocol === "https:", maxAge }) as const;

/** A session cookie, and a device cookie for a browser that is not yet known to be this user's. */
async function startSession(c: Context<AppEnv>, user: User, knownDevice: boolean) {
  setCookie(c, SESSION_COOKIE, await createSession(c.var.db, user.id), cookieOptions(c, SESSION_TTL_SECONDS));
  if (!knownDevice) {
    const device = await issueDevice(c.var.db, user.id);
    setCookie(c, DEVICE_COOKIE, device, cookieOptions(c, DEVICE_TTL_SECONDS, "/api/auth"));
  }
}

/**
 * Requests that carry a cookie must come from the app's own origin, whatever they do (login CSRF,
 * forced logout); a script without cookies may leave Origin out.
 */
function refuseForeignOrigin(c: Context<AppEnv>) {
  if (c.req.header("Origin") !== undefined || c.req.header("Cookie")) assertSameOrigin(c);
}

authRoutes.post("/signup", async (c) => {
  refuseForeignOrigin(c);
  const { username, password } = await readJson(c, CredentialsSchema);
  const user = { id: crypto.randomUUID(), username };
  const passwordHash = await hashPassword(password);
  const inserted = await c.var.db
    .insert(users)
    .values({ ...user, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!inserted.length) {
    throw new ApiError(409, "conflict", "That username is taken", { username: "already taken" });
  }
  await startSession(c, user, false);
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
  const user = { id: row.id, username: row.username };
  await startSession(c, user, device !== undefined);
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
