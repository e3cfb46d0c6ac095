// Who is calling: a bearer API token, else the session cookie. Cookie-bearing writes and socket
// upgrades must come from the app's own Origin (CSRF); bearer calls carry no ambient authority.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { User } from "../../protocol";
import { sha256Hex } from "../auth/crypto";
import { type Credential, SESSION_COOKIE, userForApiToken, userForSession } from "../auth/sessions";
import { type Db, database } from "../db/client";
import { ApiError, unauthorized } from "../errors";

export type AppEnv = {
  Bindings: Env;
  Variables: { db: Db; user?: User; credential?: Credential };
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const withDb: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("db", database(c.env.DB));
  await next();
};

/** Refuses a cross-site write or upgrade. A missing Origin on such a request is refused too. */
export function assertSameOrigin(c: Context<AppEnv>): void {
  const isWrite = !SAFE_METHODS.has(c.req.method) || c.req.header("Upgrade")?.toLowerCase() === "websocket";
  if (!isWrite) return;
  const origin = c.req.header("Origin");
  if (origin !== new URL(c.req.url).origin) {
    throw new ApiError(403, "forbidden_origin", "This request must come from the app's own origin");
  }
}

export const identify: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = c.req.header("Authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) {
    const user = await userForApiToken(c.var.db, bearer);
    if (!user) throw unauthorized();
    c.set("user", user);
    c.set("credential", { kind: "token", hash: await sha256Hex(bearer) });
  } else {
    const token = getCookie(c, SESSION_COOKIE);
    const user = token ? await userForSession(c.var.db, token) : undefined;
    if (token && user) {
      assertSameOrigin(c);
      c.set("user", user);
      c.set("credential", { kind: "session", hash: await sha256Hex(token) });
    }
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw unauthorized();
  await next();
};

export function currentUser(c: Context<AppEnv>): User {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}
