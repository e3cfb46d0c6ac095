// The text the model reads from an uploaded file (docs/protocol.md "Files"): a PDF's pages through
// core/pdf-text.ts (unpdf), a text file as it is. Done once, at upload; the conversation object reads the
// result from R2.
import type { ExtractedText } from "../../core/file-text";
import { normalizedText, pdfText } from "../../core/pdf-text";
import type { FileKind } from "../../protocol";

/** The file's text, or a sentence saying why it has none the model could read. */
export async function fileText(kind: FileKind, bytes: Uint8Array, name: string): Promise<ExtractedText | string> {
  if (kind === "image") return { text: "" };
  if (kind === "text") return { text: normalizedText(new TextDecoder().decode(bytes)) };
  const pdf = await pdfText(bytes);
  if (pdf === "unreadable") return `${name} could not be read as a PDF (it may be damaged or password-protected).`;
  if (pdf === "no_text")
    return `${name} has no text to read (a scanned document?); attach its pages as images instead.`;
  return pdf;
}
