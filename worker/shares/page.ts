// The page of a share link, `/s/<id>` (wrangler.toml sends it to the Worker first): the client's
// index.html (the SPA renders the snapshot from GET /api/shared/:id), never indexed, and answered 404
// when the link does not exist or was revoked, so the link itself stops working at once.
import { database } from "../../d1/client";
import { linkShard, shardDb } from "../../d1/shards";
import { findShare } from "../../d1/shares";
import { indexPage } from "../index-page";

export const SHARE_PAGE_PREFIX = "/s/";

export async function sharedPage(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD") return env.ASSETS.fetch(request);
  const id = url.pathname.slice(SHARE_PAGE_PREFIX.length);
  // The id names its shard (d1/shards.ts); one from before shards has no mark and is shard 0's.
  const shard = linkShard(env, id);
  const exists =
    /^(\d{1,4}\.)?[A-Za-z0-9_-]{1,64}$/.test(id) &&
    shard !== undefined &&
    (await findShare(database(shardDb(env, shard)), id)) !== undefined;
  return indexPage(request, env, exists, { "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" });
}
