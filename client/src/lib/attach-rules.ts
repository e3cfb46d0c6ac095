// What the composer decides about files before a byte is uploaded (docs/protocol.md "Files"): a type the
// server would refuse, a file over the size limit, too many files, more than the user's room left, each
// refused in a sentence that names the file; the name a pasted image gets; an upload's failure in words.
// Pure, so it is tested on Node (test/node/attach-rules.test.ts); the server decides again from the
// bytes. Loaded with the first file given (lib/use-attachments.ts), not before.
import { type FileListResponse, fileSizeWords } from "../../../protocol";
import { extensionOf } from "./file-words";

/** What the checks need of `GET /api/files`. */
export type AttachLimits = Pick<
  FileListResponse,
  "max_file_bytes" | "max_total_bytes" | "max_attachments" | "accepted_extensions" | "used_bytes"
>;

/** A file as the checks see it (a File, or anything with its name and size). */
export type Candidate = { name: string; size: number };

/** What the composer holds already: how many files, and the bytes of those not counted in `used_bytes`. */
export type Held = { count: number; bytes: number };

export type Checked<T extends Candidate> = { accepted: T[]; refusals: string[] };

export const typeRefusal = (name: string) =>
  `${name}: this type of file can't be attached. Images, PDFs and text files can.`;

export const sizeRefusal = (name: string, size: number, max: number) =>
  `${name} is ${fileSizeWords(size)}; files can be at most ${fileSizeWords(max)}.`;

export const countRefusal = (max: number) => `At most ${max} files in one message.`;

export const roomRefusal = (name: string, limits: AttachLimits, held: Held) =>
  `${name} does not fit: your files take ${fileSizeWords(limits.used_bytes + held.bytes)} of ${fileSizeWords(limits.max_total_bytes)}. Deleting conversations with files makes room.`;

/**
 * Splits the files the user gave into those that may be uploaded and a sentence for each one that may
 * not, in the order given. An empty file is refused too (the server would). The count refusal is said
 * once, for every file past the limit.
 */
export function checkFiles<T extends Candidate>(files: readonly T[], limits: AttachLimits, held: Held): Checked<T> {
  const accepted: T[] = [];
  const refusals: string[] = [];
  const extensions = new Set(limits.accepted_extensions.map((e) => e.toLowerCase()));
  let count = held.count;
  let bytes = held.bytes;
  let tooMany = false;
  for (const file of files) {
    if (!extensions.has(extensionOf(file.name))) refusals.push(typeRefusal(file.name));
    else if (file.size > limits.max_file_bytes) refusals.push(sizeRefusal(file.name, file.size, limits.max_file_bytes));
    else if (file.size === 0) refusals.push(`${file.name} is empty.`);
    else if (count >= limits.max_attachments) tooMany = true;
    else if (limits.used_bytes + bytes + file.size > limits.max_total_bytes)
      refusals.push(roomRefusal(file.name, limits, { count, bytes }));
    else {
      accepted.push(file);
      count++;
      bytes += file.size;
    }
  }
  if (tooMany) refusals.push(countRefusal(limits.max_attachments));
  return { accepted, refusals };
}

const IMAGE_EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
};

/**
 * The name of a pasted file: its own when it has a usable one, else `pasted-image-<time>.png` (a
 * screenshot from the clipboard comes as "image.png" or nameless), by its type.
 */
export function pastedName(name: string, type: string, now: Date): string {
  if (name && name !== "image.png" && extensionOf(name)) return name;
  const time = now.toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return `pasted-image-${time}${IMAGE_EXTENSIONS[type] ?? ".png"}`;
}

/** Whether a name (or a browser's type) says image: the chip shows a thumbnail, the model warning applies. */
export function looksLikeImage(name: string, type = ""): boolean {
  const ext = extensionOf(name);
  if (type === "image/svg+xml" || ext === ".svg") return false;
  return type.startsWith("image/") || [".png", ".jpg", ".jpeg", ".gif", ".webp"].includes(ext);
}

/** An upload's failure in words: the server's message, or what went wrong on the way. */
export function uploadFailure(name: string, status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string" && parsed.error.message) return parsed.error.message;
  } catch {}
  if (status === 0) return `${name} was not uploaded: the server cannot be reached. Check your connection.`;
  if (status === 413) return `${name} is too large.`;
  return `${name} was not uploaded (HTTP ${status}). Try again.`;
}
