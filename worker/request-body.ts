// An import's body, read up to a limit: an archive or a ChatGPT export is far past the 256 KiB every
// JSON body is held to (worker/validate.ts), so these routes read their bytes here and stop at the
// limit, before the rest arrives, rather than take in whatever is sent.
import type { Context } from "hono";
import { ApiError } from "../errors";

export async function readBody(c: Context, limit: number, what: string): Promise<Uint8Array> {
  const tooLarge = () => new ApiError(413, "too_large", `${what} is larger than ${limit / 1024 / 1024} MiB`);
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
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
