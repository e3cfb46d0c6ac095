// The page of a share link, `/s/<id>` (wrangler.toml sends it to the Worker first): the client's
// index.html (the SPA renders the snapshot from GET /api/shared/:id), never indexed, and answered 404
// when the link does not exist or was revoked, so the link itself stops working at once.
import { database } from "../../d1/client";
import { findShare } from "../../d1/shares";

export const SHARE_PAGE_PREFIX = "/s/";

export async function sharedPage(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD") return env.ASSETS.fetch(request);
  const id = url.pathname.slice(SHARE_PAGE_PREFIX.length);
  const exists = /^[A-Za-z0-9_-]{1,64}$/.test(id) && (await findShare(database(env.DB), id)) !== undefined;
  // "/" is index.html (a request for /index.html itself would be redirected to /).
  const index = await env.ASSETS.fetch(new Request(new URL("/", url), { method: request.method }));
  const headers = new Headers(index.headers);
  headers.set("X-Robots-Tag", "noindex");
  headers.set("Referrer-Policy", "no-referrer");
  headers.set("Cache-Control", "no-store");
  headers.delete("ETag");
  return new Response(index.body, { status: exists ? index.status : 404, headers });
}
