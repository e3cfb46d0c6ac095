// A request's body, read up to a limit: reading stops at the limit (or before, on a larger
// Content-Length), so a client cannot make the Worker take in whatever it sends. Every JSON body
// (validate.ts, 256 KiB) and an import's archive (account-data, 50 MiB) are read so.
import type { Context } from "hono";
import { joinBytes } from "../core/bytes";
import { ApiError } from "./errors";

/** The body's bytes; past `limit`, 413 `too_large` with `message`. */
export async function readBody(c: Context, limit: number, message: string): Promise<Uint8Array> {
  const tooLarge = () => new ApiError(413, "too_large", message);
  const declared = Number(c.req.header("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const body = c.req.raw.body;
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    length += part.value.byteLength;
    if (length > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(part.value);
  }
  return joinBytes(chunks);
}
