// The files a user attached, as the demo model reads them from the prompt (docs/protocol.md "Files"):
// images are image parts of the user's message (or "[Image: …]" words where the model cannot see), and
// documents are the Files System messages after it, "[File: name (type, size, pages)]" then the text or
// the outline. The demo says what it was given, and reads a long document's first page with file_read.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { lastUserIndex } from "./prompt-reading";

export interface AttachedDocument {
  /** The header line: "[File: report.pdf (PDF, 14 KB, 2 pages)]". */
  header: string;
  /** What the message shows of the text (the first lines), or "" for an outline. */
  start: string;
  /** Set when the document is too long to be in the request: the id file_read takes. */
  readId?: string;
}

export interface Attached {
  images: string[];
  documents: AttachedDocument[];
}

const FILE_HEADER = /^\[File: .+\]$/;

export function attachedFiles(prompt: LanguageModelV3Prompt): Attached {
  const at = lastUserIndex(prompt);
  const user = prompt[at];
  const images: string[] = [];
  if (user?.role === "user")
    for (const part of user.content) {
      if (part.type === "file" && part.mediaType.startsWith("image/")) images.push(part.filename ?? "an image");
      else if (part.type === "text" && part.text.startsWith("[Image: ")) images.push(part.text.slice(8, -1));
    }
  const documents: AttachedDocument[] = [];
  for (const message of prompt.slice(at + 1)) {
    if (message.role !== "system") break;
    const [header = "", ...rest] = message.content.split("\n");
    if (!FILE_HEADER.test(header)) continue;
    const readId = /file_read \(file: "([^"]+)"/.exec(message.content)?.[1];
    const start = readId
      ? ""
      : rest
          .filter((line) => line.trim() && !/^\[Page \d+\]$/.test(line))
          .slice(0, 3)
          .join("\n");
    documents.push({ header, start, ...(readId ? { readId } : {}) });
  }
  return { images, documents };
}

export const hasFiles = (attached: Attached) => attached.images.length > 0 || attached.documents.length > 0;
