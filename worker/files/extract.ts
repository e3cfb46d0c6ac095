// The text the model reads from an uploaded file (docs/protocol.md "Files"): a PDF's pages through unpdf
// (PDF.js built for serverless runtimes: no DOM, no worker thread, runs in Workers), a text file as it
// is. Done once, at upload; the conversation object reads the result from R2.
import { extractText } from "unpdf";
import type { ExtractedText } from "../../core/file-text";
import type { FileKind } from "../../protocol";

/** Unix newlines, no byte-order mark: line numbers mean the same to the model and to `file_read`. */
const normalized = (text: string) => text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");

/** The file's text, or a sentence saying why it has none the model could read. */
export async function fileText(kind: FileKind, bytes: Uint8Array, name: string): Promise<ExtractedText | string> {
  if (kind === "image") return { text: "" };
  if (kind === "text") return { text: normalized(new TextDecoder().decode(bytes)) };
  let pages: string[];
  try {
    // PDF.js takes the buffer over; it gets a copy, the caller keeps the bytes for R2.
    pages = (await extractText(new Uint8Array(bytes), { mergePages: false })).text.map((p) => normalized(p).trimEnd());
  } catch {
    return `${name} could not be read as a PDF (it may be damaged or password-protected).`;
  }
  if (!pages.some((p) => p.trim()))
    return `${name} has no text to read (a scanned document?); attach its pages as images instead.`;
  return { text: pages.join("\n"), pages };
}
