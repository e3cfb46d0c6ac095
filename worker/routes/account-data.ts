// Taking everything along and bringing it back (docs/protocol.md "Export and import"), under /api/account
// (a signed-in session only, worker/app.ts): the export streams its zip as it is made; an import checks
// the whole archive (or ChatGPT export) before it writes anything, then answers with what it did, as it
// goes when asked to (progress.ts). The bodies are zips and large JSON files, read here up to their own
// limit rather than the 256 KiB of a JSON body.
import { Hono } from "hono";
import { EXPORT_COUNT_HEADER, MAX_IMPORT_BYTES } from "../../protocol";
import { exportArchive } from "../account-data/export-archive";
import { importArchive } from "../account-data/import-archive";
import { checkChatGpt, importChatGpt } from "../account-data/import-chatgpt";
import { importAnswer } from "../account-data/progress";
import { checkArchive } from "../account-data/read-archive";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readBody } from "../request-body";

export const accountDataRoutes = new Hono<AppEnv>();

accountDataRoutes.get("/export", async (c) => {
  const user = currentUser(c);
  const { total, body, done } = await exportArchive(c.env, { ...user, shard: c.var.shardIndex });
  try {
    c.executionCtx.waitUntil(done);
  } catch {
    // No execution context (a unit test's app.request): the export still runs as the body is read.
  }
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "application/zip",
      // A username is [a-z0-9_-]: nothing in it needs quoting.
      "Content-Disposition": `attachment; filename="oracle-export-${user.username}-${day}.zip"`,
      "Cache-Control": "no-store",
      [EXPORT_COUNT_HEADER]: String(total),
    },
  });
});

/** What a body over the import limit is told. */
const tooLarge = (what: string) => `${what} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`;

accountDataRoutes.post("/import", async (c) => {
  const archive = checkArchive(await readBody(c, MAX_IMPORT_BYTES, tooLarge("The archive")));
  const owner = ownerOf(c);
  return importAnswer(c, (progress) => importArchive(c.env, owner, archive, progress));
});

accountDataRoutes.post("/import/chatgpt", async (c) => {
  const checked = checkChatGpt(await readBody(c, MAX_IMPORT_BYTES, tooLarge("The ChatGPT export")));
  const owner = ownerOf(c);
  return importAnswer(c, (progress) => importChatGpt(c.env, owner, checked, progress));
});
