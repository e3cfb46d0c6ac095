// A PDF's text, page by page, through unpdf (PDF.js built for serverless runtimes: no DOM, no worker
// thread, runs in Workers and in Node). Shared by the upload route (worker/files/extract.ts) and the web
// reader (outbound/web-page.ts), so a PDF attached and a PDF read from the web read alike.
import { extractText } from "unpdf";
import type { ExtractedText } from "./file-text";

/** Unix newlines, no byte-order mark: line numbers mean the same to the model and to `file_read`. */
export const normalizedText = (text: string) => text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");

const PDF_MARK = [0x25, 0x50, 0x44, 0x46, 0x2d];

/**
 * The `%PDF-` a PDF starts with (PDF 32000-1 §7.5.2), beginning at most `lead` bytes in: readers accept
 * it within the first 1024 bytes (the default); 0 asks for a body that starts with it.
 */
export function looksLikePdf(bytes: Uint8Array, lead = 1023): boolean {
  const last = Math.min(lead, bytes.length - PDF_MARK.length);
  for (let i = 0; i <= last; i++) if (PDF_MARK.every((b, j) => bytes[i + j] === b)) return true;
  return false;
}

/**
 * The text of each page (`pages`, trailing blanks trimmed) and all of them joined with "\n" (`text`), as
 * core/file-text.ts reads them; "unreadable" when PDF.js cannot open it (damaged, password-protected,
 * not a PDF), "no_text" when no page has any text (a scan). The caller keeps its bytes: PDF.js gets a copy.
 */
export async function pdfText(bytes: Uint8Array): Promise<Required<ExtractedText> | "unreadable" | "no_text"> {
  let pages: string[];
  try {
    pages = (await extractText(new Uint8Array(bytes), { mergePages: false })).text.map((p) =>
      normalizedText(p).trimEnd(),
    );
  } catch {
    return "unreadable";
  }
  if (!pages.some((p) => p.trim())) return "no_text";
  return { text: pages.join("\n"), pages };
}
