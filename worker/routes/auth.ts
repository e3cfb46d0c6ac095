// Signup, login, logout and me (docs/protocol.md "Identity").
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import { otherSessionsDelete } from "../../d1/account-sessions";
import { createAccount, noAccountYet } from "../../d1/accounts";
import { claimInvite, releaseInvite } from "../../d1/invites";
import { takeReset } from "../../d1/password-resets";
import { hit } from "../../d1/rate-limits";
import { users } from "../../d1/schema";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { LoginSchema, ResetPasswordSchema, SignupSchema } from "../../protocol";
import { clientAddress } from "../auth/client-address";
import { DUMMY_PASSWORD_HASH, hashPassword, sha256Hex, verifyPassword } from "../auth/crypto";
import { DEVICE_COOKIE, trustedDevice } from "../auth/devices";
import { clearAttempts, reserveAttempt } from "../auth/rate-limit";
import { publicUser, revokeSession, SESSION_COOKIE } from "../auth/sessions";
import { startSession } from "../auth/sign-in";
import { configuredAdmins, isAdmin, signupPolicy, signupsPerHour } from "../auth/signup-policy";
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
  const admission = await admitSignup(c, username, invite);
  const id = crypto.randomUUID();
  const claimed = admission.invite ? await claimInvite(c.env.DB, admission.invite, id) : true;
  if (!claimed) throw new ApiError(403, "signup_closed", INVITE_USED);
  const passwordHash = await hashPassword(password);
  const status = admission.pending ? "pending" : "active";
  const created = await createAccount(c.env.DB, { id, username, passwordHash, status }, configuredAdmins(c.env));
  if (!created) {
    if (admission.invite) await releaseInvite(c.env.DB, admission.invite, id);
    throw new ApiError(409, "conflict", "That username is taken", { username: "already taken" });
  }
  // The first account of an empty installation gets in whatever SIGNUP says, as its admin; two at once
  // both saw it empty, and the one that did not become the admin is held to the policy after all.
  if (admission.bootstrap && created.role !== "admin" && signupPolicy(c.env, c.req.url) !== "open") {
    await c.env.DB.prepare("DELETE FROM users WHERE id = ?").bind(id).run();
    throw new ApiError(403, "signup_closed", CLOSED);
  }
  const user = publicUser({ id, username, status }, created.role === "admin");
  await startSession(c, user, { method: "signup" });
  return c.json({ user }, 201);
});

const CLOSED = "Sign-ups are closed on this server";
const INVITE_NEEDED = "Sign-ups on this server need an invite link: ask an administrator for one";
const INVITE_USED = "This invite link does not work any more: it was used, revoked or has expired. Ask for a new one";

/** The per-address limit on sign-ups, counted before anything else is checked (signup-policy.ts). */
async function countSignup(c: Context<AppEnv>): Promise<void> {
  const max = signupsPerHour(c.env);
  if (!max) return;
  const address = clientAddress(c.req.header("CF-Connecting-IP") ?? "local");
  const decision = await hit(c.var.db, `sign-up:${address}`, { max, windowSeconds: 3600 });
  if (decision.allowed) return;
  c.header("Retry-After", String(decision.retryAfterSeconds));
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  throw new ApiError(429, "rate_limited", `Too many sign-ups from this address; try again in ${minutes} min`);
}

/** Whether SIGNUP lets this sign-up in, and how: pending approval, or with an invite to use up. */
async function admitSignup(
  c: Context<AppEnv>,
  username: string,
  invite: string | undefined,
): Promise<{ pending: boolean; invite?: string; bootstrap?: boolean }> {
  const admins = configuredAdmins(c.env);
  if (admins.includes(username)) return { pending: false };
  if (!admins.length && (await noAccountYet(c.env.DB))) return { pending: false, bootstrap: true };
  const policy = signupPolicy(c.env, c.req.url);
  if (policy === "closed") throw new ApiError(403, "signup_closed", CLOSED);
  if (policy === "invite") {
    if (!invite) throw new ApiError(403, "signup_closed", INVITE_NEEDED);
    return { pending: false, invite: await sha256Hex(invite) };
  }
  return { pending: policy === "approval" };
}

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

/**
 * An admin's reset link: a new password, every session and socket of the account ended, and a session
 * for the browser that used it. The link works once.
 */
authRoutes.post("/reset", async (c) => {
  refuseForeignOrigin(c);
  const { token, new_password } = await readJson(c, ResetPasswordSchema);
  const passwordHash = await hashPassword(new_password);
  const userId = await takeReset(c.var.db, await sha256Hex(token));
  if (!userId) throw new ApiError(403, "confirmation_failed", RESET_GONE);
  const [[row]] = await c.var.db.batch([
    c.var.db.update(users).set({ passwordHash }).where(eq(users.id, userId)).returning(),
    otherSessionsDelete(c.var.db, userId, undefined),
  ]);
  if (!row) throw new ApiError(403, "confirmation_failed", RESET_GONE);
  await tellUserChanged(c.env, userId, "credentials");
  if (row.status === "disabled")
    throw new ApiError(403, "account_disabled", "This account has been disabled by an administrator");
  const user = publicUser(row, isAdmin(row, c.env));
  await startSession(c, user, { method: "reset" });
  return c.json({ user });
});

const RESET_GONE = "This reset link does not work any more: it was used, replaced or has expired. Ask for a new one";

export const meRoutes = new Hono<AppEnv>();
meRoutes.get("/", requireUser, (c) => c.json({ user: currentUser(c) }));
