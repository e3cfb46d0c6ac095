// Who is calling: a bearer API token, else the session cookie. Cookie-bearing writes and socket
// upgrades must come from the app's own Origin (CSRF); bearer calls carry no ambient authority.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { type Db, database } from "../../d1/client";
import type { Credential } from "../../d1/credentials";
import type { User } from "../../protocol";
import { credentialFor, SESSION_COOKIE, userForCredential } from "../auth/sessions";
import { ApiError, unauthorized } from "../errors";

export type AppEnv = {
  Bindings: Env;
  Variables: { db: Db; user?: User; credential?: Credential };
};

/** Methods that change nothing: no Origin check, and no live conversation told of a change (user-changes.ts). */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export const withDb: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("db", database(c.env.DB));
  await next();
};

export const isWebSocketUpgrade = (c: Context) => c.req.header("Upgrade")?.toLowerCase() === "websocket";

/** Refuses a cross-site write or upgrade. A missing Origin on such a request is refused too. */
export function assertSameOrigin(c: Context<AppEnv>): void {
  const isWrite = !SAFE_METHODS.has(c.req.method) || isWebSocketUpgrade(c);
  if (!isWrite) return;
  const origin = c.req.header("Origin");
  if (origin !== new URL(c.req.url).origin) {
    throw new ApiError(403, "forbidden_origin", "This request must come from the app's own origin");
  }
}

export const identify: MiddlewareHandler<AppEnv> = async (c, next) => {
  const bearer = c.req.header("Authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const cookie = getCookie(c, SESSION_COOKIE);
  const credential = bearer
    ? await credentialFor("token", bearer)
    : cookie
      ? await credentialFor("session", cookie)
      : undefined;
  const user = credential && (await userForCredential(c.var.db, credential));
  // A bad bearer token is an error; a stale cookie just means "not signed in".
  if (credential?.kind === "token" && !user) throw unauthorized();
  if (credential && user) {
    if (credential.kind === "session") assertSameOrigin(c);
    c.set("user", user);
    c.set("credential", credential);
  }
  await next();
};

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw unauthorized();
  await next();
};

/**
 * What guards the user's safety takes a signed-in session, never an API token (docs/protocol.md "API
 * tokens"): a leaked token must not mint another (which would outlive its revocation), delete the owner's
 * other tokens, switch "Ask first" off, add or repoint an MCP server or a provider (which sends a stored
 * secret where it points), or publish a conversation.
 */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw unauthorized();
  if (c.var.credential?.kind !== "session")
    throw new ApiError(
      403,
      "session_required",
      "This needs a signed-in session: an API token cannot change API tokens, tool approvals, MCP servers, model providers or shares",
    );
  await next();
};

/** requireSession for the writes only: a token may still read what holds no secret (a list of servers, the rules). */
export const sessionOnlyWrites: MiddlewareHandler<AppEnv> = async (c, next) =>
  SAFE_METHODS.has(c.req.method) ? next() : requireSession(c, next);

export function currentUser(c: Context<AppEnv>): User {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}
