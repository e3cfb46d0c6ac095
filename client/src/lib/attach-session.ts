// The composer's uploader (lib/use-attachments.ts loads it with the first file given): the limits, asked
// for once a session (what this page uploaded or removed since is counted in), the checks before any
// byte is sent (lib/attach-rules.ts), then each accepted file uploaded on its own, its chip following
// its progress and its outcome.
import type { FileObject } from "../../../protocol";
import { type AttachLimits, checkFiles, looksLikeImage, pastedName } from "./attach-rules";
import { deleteUnsentFile, readLimits, uploadFile } from "./files";
import { type AttachmentsState, type ComposerFile, fileSession, newKey } from "./use-attachments";

async function currentLimits(): Promise<AttachLimits | string> {
  if (!fileSession.limits) {
    fileSession.sinceRead = 0;
    const asked = readLimits().then((read) => {
      if (typeof read === "string" && fileSession.limits === asked) fileSession.limits = null; // asked again next time
      return read;
    });
    fileSession.limits = asked;
  }
  const read = await fileSession.limits;
  return typeof read === "string" ? read : { ...read, used_bytes: read.used_bytes + fileSession.sinceRead };
}

const toAttachment = ({ id, name, content_type, kind, size, pages, lines, width, height }: FileObject) => ({
  id,
  name,
  content_type,
  kind,
  size,
  pages,
  lines,
  width,
  height,
});

/** Checks the files given against the limits, says why any is refused, and uploads the rest. */
export async function addFiles(given: readonly File[], pasted: boolean, state: AttachmentsState): Promise<void> {
  const read = await currentLimits();
  if (typeof read === "string") return state.setRefusals([read]);
  const named = given.map((file) => ({
    file,
    name: pasted ? pastedName(file.name, file.type, new Date()) : file.name,
    size: file.size,
  }));
  const held = state.latest.current.filter((item) => item.status !== "failed");
  const uploading = held.filter((item) => item.status === "uploading");
  const checked = checkFiles(named, read, {
    count: held.length,
    bytes: uploading.reduce((sum, item) => sum + item.size, 0),
  });
  state.setRefusals(checked.refusals);
  const added = checked.accepted.map(({ file, name }) => start(file, name, state));
  state.latest.current = [...state.latest.current, ...added];
  state.setItems((list) => [...list, ...added]);
}

/** Thumbnails are read from the picked file up to this size (the page's CSP allows data: images, not
 * blob: ones); a larger image shows once uploaded, from its address. */
const PREVIEW_MAX_BYTES = 4 * 1024 * 1024;

function start(file: File, name: string, state: AttachmentsState): ComposerFile {
  const key = newKey();
  const image = looksLikeImage(name, file.type);
  if (image && file.size <= PREVIEW_MAX_BYTES) {
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === "string" && state.patch(key, { preview: reader.result });
    reader.readAsDataURL(file);
  }
  const upload = uploadFile(file, name, (progress) => state.patch(key, { progress }));
  state.aborts.current.set(key, upload.abort);
  void upload.done.then((outcome) => {
    state.aborts.current.delete(key);
    if (outcome.ok) {
      // Removed (or the page left) as its upload ended: nothing will send it.
      if (!state.latest.current.some((item) => item.key === key)) return void deleteUnsentFile(outcome.file.id);
      fileSession.sinceRead += outcome.file.size;
      const { kind } = outcome.file;
      state.patch(key, { status: "ready", progress: 1, file: toAttachment(outcome.file), image: kind === "image" });
    } else if (!outcome.aborted) state.patch(key, { status: "failed", error: outcome.message });
  });
  return { key, name, size: file.size, image, progress: 0, status: "uploading" };
}

/** A chip removed before sending: its upload stops, or the uploaded file is deleted. */
export function removeFile(key: string, state: AttachmentsState): void {
  const item = state.latest.current.find((i) => i.key === key);
  if (!item) return;
  state.aborts.current.get(key)?.();
  state.aborts.current.delete(key);
  const sent = item.status === "ready" && item.file;
  if (sent)
    void deleteUnsentFile(sent.id).then((deleted) => {
      if (deleted) fileSession.sinceRead -= sent.size;
    });
  state.latest.current = state.latest.current.filter((i) => i.key !== key);
  state.setItems((list) => list.filter((i) => i.key !== key));
  state.setRefusals([]);
}

/** The page is left with files not sent: uploads under way stop, uploaded files are deleted (nothing
 * else would ever send or delete them). */
export function leave(state: AttachmentsState): void {
  for (const item of state.latest.current) removeFile(item.key, state);
}
