// Signup, login, logout and me (PROTOCOL.md "Identity").
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { CredentialsSchema, LoginSchema, type User } from "../../protocol";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../auth/crypto";
import { clearFailures, recordFailure, retryAfter } from "../auth/rate-limit";
import { createSession, revokeSession, SESSION_COOKIE, SESSION_TTL_SECONDS } from "../auth/sessions";
import { users } from "../db/schema";
import { ApiError } from "../errors";
import { type AppEnv, assertSameOrigin, currentUser, requireUser } from "../middleware/identity";
import { readJson } from "../validate";

export const authRoutes = new Hono<AppEnv>();

async function startSession(c: Context<AppEnv>, user: User) {
  const token = await createSession(c.var.db, user.id);
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: SESSION_TTL_SECONDS,
  });
}

/** Browsers always send Origin on these POSTs; a foreign one is a login-CSRF attempt. */
function refuseForeignOrigin(c: Context<AppEnv>) {
  if (c.req.header("Origin")) assertSameOrigin(c);
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
  await startSession(c, user);
  return c.json({ user }, 201);
});

authRoutes.post("/login", async (c) => {
  refuseForeignOrigin(c);
  const { username, password } = await readJson(c, LoginSchema);
  const address = c.req.header("CF-Connecting-IP") ?? "local";
  const key = `${username.toLowerCase()}|${address}`;
  const wait = await retryAfter(c.var.db, key);
  if (wait > 0) {
    c.header("Retry-After", String(wait));
    throw new ApiError(429, "rate_limited", `Too many failed sign-ins; try again in ${Math.ceil(wait / 60)} min`);
  }
  const row = (await c.var.db.select().from(users).where(eq(users.username, username)).limit(1))[0];
  // Verify against a dummy hash for unknown users so both failures take the same time and say the same.
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!row || !ok) {
    await recordFailure(c.var.db, key);
    throw new ApiError(401, "unauthorized", "Wrong username or password");
  }
  await clearFailures(c.var.db, key);
  const user = { id: row.id, username: row.username };
  await startSession(c, user);
  return c.json({ user });
});

authRoutes.post("/logout", async (c) => {
  refuseForeignOrigin(c);
  const token = getCookie(c, SESSION_COOKIE);
  if (token) await revokeSession(c.var.db, token);
  deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.body(null, 204);
});

export const meRoutes = new Hono<AppEnv>();
meRoutes.get("/", requireUser, (c) => c.json({ user: currentUser(c) }));
