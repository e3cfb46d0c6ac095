// Who is calling: a bearer API token, else the session cookie. Cookie-bearing writes and socket
// upgrades must come from the app's own Origin (CSRF); bearer calls carry no ambient authority.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { DELETING } from "../../d1/account-deletion";
import { touchSession } from "../../d1/account-sessions";
import { promoteListed, touchActivity } from "../../d1/accounts";
import { audit } from "../../d1/admin-audit";
import { type Db, database } from "../../d1/client";
import type { Credential } from "../../d1/credentials";
import { addAdmin } from "../../d1/directory";
import { directoryDb, type Placement, shardDb, tokenShard } from "../../d1/shards";
import type { User } from "../../protocol";
import { finishDeletion } from "../account-deletion/delete-account";
import { credentialFor, publicUser, SESSION_COOKIE, type SignedIn, userForCredential } from "../auth/sessions";
import { isAdmin } from "../auth/signup-policy";
import { ApiError, notFound, unauthorized } from "../errors";

export type AppEnv = {
  Bindings: Env;
  /**
   * `shard`, `db`, `shardIndex`: the shard this request reads and writes (enterShard), the user's once signed
   * in. `account`: the signed-in account's role and status as identity read them (`admin`: effective, ADMINS
   * included).
   */
  Variables: {
    db: Db;
    shard: D1Database;
    shardIndex: number;
    user?: User;
    credential?: Credential;
    account?: SignedIn & { admin: boolean };
  };
};

/** Methods that change nothing: no Origin check, and no live conversation told of a change (user-changes.ts). */
export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** From here on the request reads and writes shard `index` (c.var.shard, c.var.db): one shard a request. */
export function enterShard(c: Context<AppEnv>, index: number): void {
  const d1 = shardDb(c.env, index);
  c.set("shard", d1);
  c.set("shardIndex", index);
  c.set("db", database(d1));
}

/** The directory, for what spans users (a username, an invite, the audit): d1/directory.ts. */
export const directory = (c: Context<AppEnv>) => directoryDb(c.env);

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
  const secret = bearer ?? cookie;
  // The credential says which shard holds it (d1/shards.ts): no directory read to authenticate. One that
  // names a shard this installation does not have signs nobody in.
  const shard = tokenShard(c.env, secret);
  const credential =
    secret === undefined || shard === undefined ? undefined : await credentialFor(bearer ? "token" : "session", secret);
  if (credential && shard !== undefined) enterShard(c, shard);
  if (bearer && !credential) throw unauthorized();
  const user = credential && (await userForCredential(c.var.db, credential));
  // A bad bearer token is an error; a stale cookie just means "not signed in".
  if (credential?.kind === "token" && !user) throw unauthorized();
  if (credential && user) {
    if (credential.kind === "session") assertSameOrigin(c);
    const admin = isAdmin(user, c.env);
    c.set("user", publicUser(user, admin));
    c.set("credential", credential);
    c.set("account", { ...user, admin });
    if (user.status === DELETING) refuseWhileDeleting(c, user);
    else {
      background(c, afterSignIn(c, user, admin));
      if (credential.kind === "session") background(c, touchSession(c.var.db, credential.hash, user.sessionUsedAt));
    }
    // An account waiting for approval may read who it is, and nothing else.
    if (user.status === "pending" && !(c.req.method === "GET" && c.req.path === "/api/me"))
      throw new ApiError(403, "account_pending", PENDING_WORDS);
  }
  await next();
};

/**
 * An account whose deletion began (worker/account-deletion/) signs in only to finish it: the request
 * sent again goes on to its route; the app's first request after a page load or a sign-in (`/api/me`)
 * finishes it in the background. Anything else is answered as if signed out.
 */
function refuseWhileDeleting(c: Context<AppEnv>, user: SignedIn): void {
  if (c.req.method === "DELETE" && c.req.path === "/api/account") return;
  if (c.req.path === "/api/me") background(c, finishDeletion(c.env, { ...user, shard: c.var.shardIndex }));
  throw unauthorized();
}

export const PENDING_WORDS = "Your account is waiting for an administrator's approval";

/** What a request does beside its answer: the hourly activity stamp; an ADMINS listing made an admin for good. */
async function afterSignIn(c: Context<AppEnv>, user: SignedIn, admin: boolean): Promise<void> {
  await touchActivity(c.var.shard, user.id, user.lastActiveAt);
  if (admin && user.role !== "admin" && (await promoteListed(c.var.shard, user.id))) {
    await addAdmin(directory(c), { userId: user.id, shard: c.var.shardIndex });
    await audit(directory(c), {
      actor: "ADMINS",
      action: "promote",
      target: user.username,
      detail: { by: "ADMINS variable" },
    });
  }
}

/** Runs `work` after the answer where the runtime allows it (never failing the request). */
export function background(c: Context, work: Promise<unknown>): void {
  const quiet = work.catch((error) => console.warn("background work failed", error));
  try {
    c.executionCtx.waitUntil(quiet);
  } catch {
    // No execution context (a unit test's app.request): the promise still runs.
  }
}

/** Admins only; anyone else (signed in or not) gets the 404 of an unknown route. */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.account?.admin) throw notFound();
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

/** The signed-in user and their shard, as what is told of a change to them needs it (user-changes.ts). */
export const ownerOf = (c: Context<AppEnv>): Placement => ({ userId: currentUser(c).id, shard: c.var.shardIndex });

export function currentUser(c: Context<AppEnv>): User {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}
