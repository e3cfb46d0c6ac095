// Settings → Account (docs/protocol.md "Account"): the ways in, the sessions, the password. A changed
// password, or a session signed out, ends those sessions' sockets before the answer (tellUserChanged).
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { describeUserAgent } from "../../core/user-agent";
import { endOtherSessions, endSession, listSessions, otherSessionsDelete } from "../../d1/account-sessions";
import { users } from "../../d1/schema";
import { signInWays } from "../../d1/sign-in-ways";
import { tellUserChanged } from "../../durable-objects/user-changes";
import type { AccountSession } from "../../protocol";
import { ChangePasswordSchema } from "../../protocol";
import { confirmIdentity } from "../auth/confirm";
import { hashPassword } from "../auth/crypto";
import { SESSION_COOKIE } from "../auth/sessions";
import { notFound } from "../errors";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readJson } from "../validate";

export const accountRoutes = new Hono<AppEnv>();

/** The session the request came with (requireSession guarantees one). */
const currentSessionHash = (c: { var: AppEnv["Variables"] }) => c.var.credential?.hash;

accountRoutes.get("/", async (c) => {
  const user = currentUser(c);
  return c.json({ user, ways: await signInWays(c.var.db, user.id) });
});

accountRoutes.get("/sessions", async (c) => {
  const rows = await listSessions(c.var.db, currentUser(c).id);
  const current = currentSessionHash(c);
  const items: AccountSession[] = rows.flatMap((row) =>
    row.id
      ? [
          {
            id: row.id,
            current: row.tokenHash === current,
            device: describeUserAgent(row.userAgent),
            user_agent: row.userAgent,
            address: row.address,
            place: row.place,
            method: row.method,
            created_at: row.createdAt,
            last_used_at: row.lastUsedAt,
            expires_at: row.expiresAt,
          },
        ]
      : [],
  );
  return c.json(items);
});

accountRoutes.delete("/sessions/:id", async (c) => {
  const user = currentUser(c);
  const hash = await endSession(c.var.db, user.id, c.req.param("id"));
  if (!hash) throw notFound("No such session");
  await tellUserChanged(c.env, ownerOf(c), "credentials");
  if (hash === currentSessionHash(c)) deleteCookie(c, SESSION_COOKIE, { path: "/" });
  return c.body(null, 204);
});

accountRoutes.post("/sessions/sign-out-others", async (c) => {
  const user = currentUser(c);
  const ended = await endOtherSessions(c.var.db, user.id, currentSessionHash(c));
  if (ended) await tellUserChanged(c.env, ownerOf(c), "credentials");
  return c.json({ signed_out: ended });
});

accountRoutes.post("/password", async (c) => {
  const user = currentUser(c);
  const { new_password, confirm } = await readJson(c, ChangePasswordSchema);
  await confirmIdentity(c, user.id, confirm);
  // The new password and the other sessions' end in one batch: never one without the other.
  const passwordHash = await hashPassword(new_password);
  const [, ended] = await c.var.db.batch([
    c.var.db.update(users).set({ passwordHash }).where(eq(users.id, user.id)),
    otherSessionsDelete(c.var.db, user.id, currentSessionHash(c)),
  ]);
  if (ended.length) await tellUserChanged(c.env, ownerOf(c), "credentials");
  return c.json({ signed_out: ended.length });
});
