// Starting a session, whatever signed the user in (a password, a passkey, an identity provider, a reset
// link, a sign-up): the session cookie, a device cookie for a browser not yet known to be the user's,
// and what Settings → Account shows of the session (the browser, where and how it signed in).
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { User } from "../../protocol";
import type { AppEnv } from "../middleware/identity";
import { DEVICE_COOKIE, DEVICE_TTL_SECONDS, issueDevice } from "./devices";
import { createSession, SESSION_COOKIE, SESSION_TTL_SECONDS, type SignInMethod } from "./sessions";

export const cookieOptions = (c: Context<AppEnv>, maxAge: number, path = "/") =>
  ({ httpOnly: true, sameSite: "Lax", path, secure: new URL(c.req.url).protocol === "https:", maxAge }) as const;

/** Where a request comes from as a person reads it: Cloudflare's city and country, when it knows them. */
export function placeOf(c: Context<AppEnv>): string | null {
  const cf = c.req.raw.cf as { city?: unknown; country?: unknown } | undefined;
  const parts = [cf?.city, cf?.country].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length ? parts.join(", ") : null;
}

/** The session's cookie (and a device cookie unless `knownDevice`); returns the new session's id. */
export async function startSession(
  c: Context<AppEnv>,
  user: Pick<User, "id">,
  { method, knownDevice = false }: { method: SignInMethod; knownDevice?: boolean },
): Promise<string> {
  const session = await createSession(
    c.var.db,
    { userId: user.id, shard: c.var.shardIndex },
    {
      method,
      userAgent: c.req.header("User-Agent")?.slice(0, 300) ?? null,
      address: c.req.header("CF-Connecting-IP") ?? null,
      place: placeOf(c),
    },
  );
  setCookie(c, SESSION_COOKIE, session.token, cookieOptions(c, SESSION_TTL_SECONDS));
  if (!knownDevice) {
    const device = await issueDevice(c.var.db, user.id);
    setCookie(c, DEVICE_COOKIE, device, cookieOptions(c, DEVICE_TTL_SECONDS, "/api/auth"));
  }
  return session.id;
}
