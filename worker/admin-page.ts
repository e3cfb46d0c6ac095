// The admin page, `/admin` (wrangler.toml sends it to the Worker first): the client's index.html for an
// admin, and the same page with a 404 for anyone else, so nobody else learns the page exists.
import { database } from "../d1/client";
import { credentialFor, SESSION_COOKIE, userForCredential } from "./auth/sessions";
import { configuredAdmins } from "./auth/signup-policy";

export const isAdminPage = (pathname: string) => pathname === "/admin" || pathname.startsWith("/admin/");

export async function adminPage(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const index = await env.ASSETS.fetch(new Request(new URL("/", url), { method: request.method }));
  const admin = await isAdmin(request, env);
  const headers = new Headers(index.headers);
  headers.set("Cache-Control", "no-store");
  headers.delete("ETag");
  return new Response(index.body, { status: admin ? index.status : 404, headers });
}

async function isAdmin(request: Request, env: Env): Promise<boolean> {
  const cookie = request.headers.get("Cookie") ?? "";
  const token = cookie.match(new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`))?.[1];
  if (!token) return false;
  const user = await userForCredential(database(env.DB), await credentialFor("session", token));
  return !!user && (user.role === "admin" || configuredAdmins(env).includes(user.username));
}
