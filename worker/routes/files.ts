// Files attached to messages (docs/protocol.md "Files"): upload, list, read, delete an unsent one, and
// the bytes, served so that nothing a file holds can run in the app's origin. Own only: another user's
// file is 404 like a missing one.
import { type Context, Hono } from "hono";
import { sniffFile } from "../../core/file-sniff";
import {
  deleteUnsentFile,
  type FileLimits,
  fileLimits,
  getFile,
  listFiles,
  readFileBytes,
  storeFile,
  sweepUnsentFiles,
  toFileObject,
  usedBytes,
} from "../../d1/files";
import {
  ACCEPTED_EXTENSIONS,
  FILE_UPLOAD_LIMIT,
  type FileListResponse,
  FileUploadQuerySchema,
  fileSizeWords,
  MAX_ATTACHMENTS,
} from "../../protocol";
import { ApiError, notFound } from "../errors";
import { fileText } from "../files/extract";
import { fileResponse } from "../files/serve";
import { type AppEnv, currentUser } from "../middleware/identity";
import { enforce } from "../rate-limit";
import { readBody } from "../request-body";
import { readQuery } from "../validate";

export const fileRoutes = new Hono<AppEnv>();

const NO_FILE = "No such file";

const tooLarge = (name: string, limits: FileLimits, size?: number) =>
  `${name}${size === undefined ? " is too large" : ` is ${fileSizeWords(size)}`}; files can be at most ${fileSizeWords(limits.maxFileBytes)}.`;

fileRoutes.post("/", async (c) => {
  const { name } = readQuery(c, FileUploadQuerySchema);
  const limits = fileLimits(c.env);
  const declared = c.req.header("Content-Length");
  if (declared === undefined) throw new ApiError(400, "invalid_input", "Content-Length is required for an upload");
  const userId = currentUser(c).id;
  await enforce(c, `file_upload:${userId}`, FILE_UPLOAD_LIMIT, "files uploaded");
  const bytes = await readUpload(c, limits.maxFileBytes, tooLarge(name, limits, Number(declared) || undefined));
  if (!bytes.length) throw new ApiError(400, "invalid_input", `${name} is empty`);
  const sniffed = sniffFile(bytes, name);
  if ("refused" in sniffed) throw new ApiError(415, "unsupported_file", sniffed.refused);
  const text = await fileText(sniffed.kind, bytes, name);
  if (typeof text === "string") throw new ApiError(415, "unsupported_file", text);
  const bucket = c.env.FILES;
  const kept = { userId, name, sniffed, bytes, ...(sniffed.kind === "image" ? {} : { text }) };
  const row = await storeFile(c.var.shard, bucket, kept, limits.maxTotalBytes);
  if (!row) {
    const used = await usedBytes(c.var.shard, userId);
    throw new ApiError(
      413,
      "storage_full",
      `Your files take ${fileSizeWords(used)} of ${fileSizeWords(limits.maxTotalBytes)}; ${name} (${fileSizeWords(bytes.length)}) does not fit. Deleting conversations with files makes room.`,
    );
  }
  // Files uploaded and never sent (a tab closed first) go after a day, as the composer's remove would.
  c.executionCtx.waitUntil(sweepUnsentFiles(c.var.shard, bucket, userId, UNSENT_FOR_MS).catch(() => undefined));
  return c.json(toFileObject(row), 201);
});

const UNSENT_FOR_MS = 24 * 3600 * 1000;

/** The body, or 400 when the client went away during the upload (a removed chip): a refusal, not a crash. */
async function readUpload(c: Context<AppEnv>, limit: number, tooLargeWords: string): Promise<Uint8Array> {
  try {
    return await readBody(c, limit, tooLargeWords);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, "invalid_input", "The upload was cut off before its end", undefined, { cause: error });
  }
}

fileRoutes.get("/", async (c) => {
  const userId = currentUser(c).id;
  const limits = fileLimits(c.env);
  const [rows, used] = await Promise.all([listFiles(c.var.shard, userId), usedBytes(c.var.shard, userId)]);
  const body: FileListResponse = {
    files: rows.map(toFileObject),
    used_bytes: used,
    max_file_bytes: limits.maxFileBytes,
    max_total_bytes: limits.maxTotalBytes,
    max_attachments: MAX_ATTACHMENTS,
    accepted_extensions: [...ACCEPTED_EXTENSIONS],
  };
  return c.json(body);
});

fileRoutes.get("/:id", async (c) => {
  const row = await getFile(c.var.shard, currentUser(c).id, c.req.param("id"));
  if (!row) throw notFound(NO_FILE);
  return c.json(toFileObject(row));
});

fileRoutes.get("/:id/content", async (c) => {
  const userId = currentUser(c).id;
  const row = await getFile(c.var.shard, userId, c.req.param("id"));
  const object = row && (await readFileBytes(c.env.FILES, userId, row.id));
  if (!row || !object) throw notFound(NO_FILE);
  return fileResponse(row, object, c.req.query("download") === "1");
});

fileRoutes.delete("/:id", async (c) => {
  const outcome = await deleteUnsentFile(c.var.shard, c.env.FILES, currentUser(c).id, c.req.param("id"));
  if (outcome === "missing") throw notFound(NO_FILE);
  if (outcome === "carried")
    throw new ApiError(409, "conflict", "A message carries this file: it is deleted with its conversation");
  return c.body(null, 204);
});
