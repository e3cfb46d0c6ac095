// What an uploaded file is, decided from its bytes (docs/protocol.md "Files"): never from its name or the
// type the client sent. Four image signatures and the PDF's are all the binary types kept; anything else
// must be UTF-8 text. A general detector (file-type knows 150 formats) would not change one decision here,
// and text, the case it cannot tell, is the one that matters: so the few signatures are checked here.
import type { FileKind } from "../protocol";

export interface Sniffed {
  kind: FileKind;
  content_type: string;
  width?: number;
  height?: number;
}

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The text subtype a text file is labelled with, by its extension (it is served as text/plain anyway). */
const TEXT_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  jsonl: "application/jsonl",
  html: "text/html",
  htm: "text/html",
  xml: "text/xml",
  svg: "image/svg+xml",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  yaml: "text/yaml",
  yml: "text/yaml",
};

function imageSize(bytes: Uint8Array, type: string): { width?: number; height?: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (type === "image/png" && bytes.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
    if (type === "image/gif" && bytes.length >= 10)
      return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    if (type === "image/jpeg") return jpegSize(bytes, view);
  } catch {
    // A header cut short: the size is unknown, the file still an image.
  }
  return {};
}

/** A JPEG's size is in its first start-of-frame segment. */
function jpegSize(bytes: Uint8Array, view: DataView): { width?: number; height?: number } {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return {};
    const marker = bytes[i + 1] ?? 0;
    const length = view.getUint16(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
    i += 2 + length;
  }
  return {};
}

function imageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

/** Valid UTF-8 with no NUL byte (binary formats have them; text does not). */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** What the bytes are, or a sentence saying why the file is not kept. */
export function sniffFile(bytes: Uint8Array, name: string): Sniffed | { refused: string } {
  const image = imageType(bytes);
  if (image) return { kind: "image", content_type: image, ...imageSize(bytes, image) };
  // A PDF may have a few bytes before its header (the spec allows 1,024).
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return { kind: "pdf", content_type: "application/pdf" };
  if (isText(bytes)) {
    const ext = name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "";
    return { kind: "text", content_type: TEXT_TYPES[ext] ?? "text/plain" };
  }
  return {
    refused: `${name} is not a file that can be attached: images (PNG, JPEG, GIF, WebP), PDFs and text files can.`,
  };
}
