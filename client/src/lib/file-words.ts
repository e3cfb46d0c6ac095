// A file in words, wherever the app names one: its type and length on a chip ("PDF · 12 pages · 34 KB"),
// what an attached document's System message says ("Read report.pdf · 12 pages"), the warning for a
// model that cannot see images. Pure (test/node/attach-rules.test.ts).
import { type Attachment, fileSizeWords } from "../../../protocol";
import { plural } from "./plural";

/** The extension a file name ends with, lower-cased with its dot (".pdf"), or "" for none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 || (dot === 0 && name.length > 1) ? name.slice(dot).toLowerCase() : "";
}

/** Said under the composer, before sending, when the model would get only an image's name. */
export function blindModelWarning(model: string): string {
  return `${model} can't see images: it will get only the file's name.`;
}

/** What an attached document's System message says (item `file_attachment` with `file`), in one line. */
export function attachedFileSentence(file: Pick<Attachment, "name" | "pages" | "lines">, inline: boolean | undefined) {
  if (inline === false) return `${file.name} is long: the agent reads it by parts`;
  const length =
    file.pages !== undefined ? plural(file.pages, "page") : file.lines !== undefined ? plural(file.lines, "line") : "";
  return length ? `Read ${file.name} · ${length}` : `Read ${file.name}`;
}

const TYPE_WORDS: Record<string, string> = {
  "application/pdf": "PDF",
  "text/markdown": "Markdown",
  "text/csv": "CSV",
  "text/tab-separated-values": "TSV",
  "application/json": "JSON",
  "application/jsonl": "JSON Lines",
  "text/html": "HTML",
  "text/xml": "XML",
  "image/svg+xml": "SVG",
  "text/css": "CSS",
  "text/javascript": "JavaScript",
  "text/yaml": "YAML",
  "text/plain": "Text",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/gif": "GIF image",
  "image/webp": "WebP image",
};

/** A file's type in a word or two: "PDF", "Markdown", "PNG image"; else what its extension says. */
export function typeWords(file: Pick<Attachment, "content_type" | "kind" | "name">): string {
  const known = TYPE_WORDS[file.content_type];
  if (known) return known;
  if (file.kind === "image") return "Image";
  const ext = extensionOf(file.name).slice(1).toUpperCase();
  return ext ? `${ext} text` : "Text";
}

/** A document's chip line: "PDF · 12 pages", "Markdown · 40 lines", "PNG image · 1.2 MB". */
export function attachmentLine(file: Pick<Attachment, "content_type" | "kind" | "name" | "size" | "pages" | "lines">) {
  const parts = [typeWords(file)];
  if (file.pages !== undefined) parts.push(plural(file.pages, "page"));
  else if (file.lines !== undefined && file.kind !== "image") parts.push(plural(file.lines, "line"));
  parts.push(fileSizeWords(file.size));
  return parts.join(" · ");
}
