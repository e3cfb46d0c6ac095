// The admin page, `/admin` (wrangler.toml sends it to the Worker first): the client's index.html for an
// admin, and the same page with a 404 for anyone else, so nobody else learns the page exists.

import { parse as parseCookie } from "hono/utils/cookie";
import { database } from "../d1/client";
import { shardDb, tokenShard } from "../d1/shards";
import { credentialFor, SESSION_COOKIE, userForCredential } from "./auth/sessions";
import { isAdmin } from "./auth/signup-policy";
import { indexPage } from "./index-page";

export const isAdminPage = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");

export async function adminPage(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return env.ASSETS.fetch(request);
  return indexPage(request, env, await signedInAdmin(request, env));
}

async function signedInAdmin(request: Request, env: Env): Promise<boolean> {
  // Read as identity's getCookie reads it (hono's parser): this page is served outside the Hono app.
  const token = parseCookie(request.headers.get("Cookie") ?? "", SESSION_COOKIE)[SESSION_COOKIE];
  const shard = tokenShard(env, token);
  if (!token || shard === undefined) return false;
  const user = await userForCredential(database(shardDb(env, shard)), await credentialFor("session", token));
  return !!user && isAdmin(user, env);
}
