// Settings → Account → Your data, over HTTP (docs/protocol.md "Export and import"). The export is read
// as it streams, its conversations counted as their files begin (zip-progress.ts) against the total its
// header gives, then saved as the file it is. An import sends the file and reads the answer line by
// line: each conversation imported, then what was done. A ChatGPT zip is opened here and only its
// conversations.json is sent, since the zip (with every image) is often past what an import takes.
import {
  EXPORT_COUNT_HEADER,
  ImportProgressLineSchema,
  type ImportSummary,
  isConversationFile,
  MAX_IMPORT_BYTES,
  PROGRESS_TYPE,
} from "../../../protocol";
import { type ApiError, type ApiResult, readError } from "./api";
import { downloadBlob } from "./export";
import { ZipFileCounter } from "./zip-progress";

export type ExportProgress = { conversations: number; total: number | null; bytes: number };
export type ImportKind = "oracle" | "chatgpt";
export type ImportProgress = { phase: "preparing" | "sending" } | { phase: "importing"; done: number; total: number };

/** A failure found here (status 0), or a refusal found here before anything was sent (its HTTP status). */
const failure = (message: string, code = "network", status = 0): { ok: false; error: ApiError } => ({
  ok: false,
  error: { status, code, message, fields: {} },
});

/** Downloads the whole account as a zip and saves it; its file name and size. */
export async function downloadAccount(
  onProgress: (progress: ExportProgress) => void,
): Promise<ApiResult<{ fileName: string; bytes: number }>> {
  let response: Response;
  try {
    response = await fetch("/api/account/export", { credentials: "same-origin" });
  } catch {
    return failure("Network error: check your connection.");
  }
  if (!response.ok || !response.body) return { ok: false, error: await readError(response) };
  const total = Number(response.headers.get(EXPORT_COUNT_HEADER));
  const counter = new ZipFileCounter(isConversationFile);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      chunks.push(part.value);
      bytes += part.value.byteLength;
      counter.push(part.value);
      onProgress({ conversations: counter.count, total: Number.isFinite(total) ? total : null, bytes });
    }
  } catch {
    return failure("the download broke off before the end. Try again.");
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "")?.[1] ?? "oracle-export.zip";
  downloadBlob(fileName, new Blob(chunks, { type: "application/zip" }));
  return { ok: true, data: { fileName, bytes } };
}

/** Imports an Oracle export (a zip) or a ChatGPT export (its conversations.json, or the zip holding it). */
export async function importAccount(
  kind: ImportKind,
  file: File,
  onProgress: (progress: ImportProgress) => void,
): Promise<ApiResult<ImportSummary>> {
  onProgress({ phase: "preparing" });
  const body = kind === "chatgpt" ? await chatGptBody(file) : { ok: true as const, data: file as Blob };
  if (!body.ok) return body;
  if (body.data.size > MAX_IMPORT_BYTES)
    return failure(
      `the file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB, more than an import takes.`,
      "too_large",
      413,
    );
  onProgress({ phase: "sending" });
  let response: Response;
  try {
    response = await fetch(kind === "chatgpt" ? "/api/account/import/chatgpt" : "/api/account/import", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": kind === "chatgpt" ? "application/json" : "application/zip", Accept: PROGRESS_TYPE },
      body: body.data,
    });
  } catch {
    return failure("Network error: check your connection.");
  }
  if (!response.ok || !response.body) return { ok: false, error: await readError(response) };
  return readProgress(response.body, onProgress);
}

/** The answer's lines: progress as it comes, then the summary, or what failed part-way. */
async function readProgress(
  body: ReadableStream<Uint8Array>,
  onProgress: (progress: ImportProgress) => void,
): Promise<ApiResult<ImportSummary>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  try {
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      pending += decoder.decode(part.value, { stream: true });
      const complete = pending.split("\n");
      pending = complete.pop() ?? "";
      for (const text of complete) {
        const line = ImportProgressLineSchema.safeParse(JSON.parse(text || "null"));
        if (!line.success) continue;
        if (line.data.type === "progress") onProgress({ phase: "importing", ...line.data });
        else if (line.data.type === "done") return { ok: true, data: line.data.summary };
        else
          return failure(
            `${line.data.error.message}. What was imported before it stopped stays.`,
            line.data.error.code,
          );
      }
    }
  } catch {
    // The connection broke: fall through to say so.
  }
  return failure("the answer broke off before the import said it was done. What was imported so far stays.");
}

/** What to send of a ChatGPT export: the file itself, or the conversations.json of a zip. */
async function chatGptBody(file: File): Promise<ApiResult<Blob>> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (!isZip) return { ok: true, data: file };
  // Loaded only for a zip: the settings page does not carry the unzipper otherwise.
  const { unzipSync } = await import("fflate");
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => f.name === "conversations.json" || f.name.endsWith("/conversations.json"),
    });
  } catch {
    return failure("this zip could not be opened: is the download whole?", "invalid_input", 400);
  }
  const name = Object.keys(files).sort((a, b) => a.length - b.length)[0];
  const json = name ? files[name] : undefined;
  if (!json)
    return failure(
      "this zip holds no conversations.json. Choose the zip ChatGPT's Export data sends you.",
      "invalid_input",
      400,
    );
  return { ok: true, data: new Blob([json as Uint8Array<ArrayBuffer>], { type: "application/json" }) };
}
