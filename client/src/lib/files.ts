// Files over the routes of docs/protocol.md "Files", for the composer (lib/use-attachments.ts, which
// loads this with the first file given): the limits (GET /api/files), an upload by XMLHttpRequest so its
// progress can be shown, and removing a file not sent yet.
import { FileListResponseSchema, type FileObject, FileObjectSchema } from "../../../protocol";
import { requestEmpty, requestJson, signalUnauthorized } from "./api";
import { type AttachLimits, uploadFailure } from "./attach-rules";

/** The limits and the room used; a string says why they are not known. */
export async function readLimits(): Promise<AttachLimits | string> {
  const result = await requestJson("/api/files", FileListResponseSchema);
  return result.ok ? result.data : `Files cannot be attached now: ${result.error.message}`;
}

export type Upload = {
  /** The file as the server kept it, or the reason it did not (the server's words). */
  done: Promise<{ ok: true; file: FileObject } | { ok: false; message: string; aborted?: boolean }>;
  abort: () => void;
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `POST /api/files?name=…` with the file as the body (same origin: the session cookie goes along); `onProgress` gets 0…1. */
export function uploadFile(file: Blob, name: string, onProgress: (share: number) => void): Upload {
  const xhr = new XMLHttpRequest();
  const done: Upload["done"] = new Promise((resolve) => {
    xhr.open("POST", `/api/files?name=${encodeURIComponent(name)}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status === 201) {
        const parsed = FileObjectSchema.safeParse(safeJson(xhr.responseText));
        if (parsed.success) return resolve({ ok: true, file: parsed.data });
        return resolve({ ok: false, message: `${name} was uploaded, but the server's answer was not understood.` });
      }
      if (xhr.status === 401) signalUnauthorized();
      resolve({ ok: false, message: uploadFailure(name, xhr.status, xhr.responseText) });
    };
    xhr.onerror = () => resolve({ ok: false, message: uploadFailure(name, 0, "") });
    xhr.onabort = () => resolve({ ok: false, message: `${name}: upload cancelled.`, aborted: true });
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

/** Removes a file no message carries yet (a chip removed before sending); true when it is gone. */
export async function deleteUnsentFile(id: string): Promise<boolean> {
  return (await requestEmpty(`/api/files/${encodeURIComponent(id)}`, "DELETE")).ok;
}
