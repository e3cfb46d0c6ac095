// What the model reads of a document attached to a user message (docs/protocol.md "Files"): the body of
// its `file_attachment` System item. The whole text when it fits the share of the window it is given,
// otherwise the file's outline and how to read the rest with the file tools. The body is fixed when the
// message is sent and replayed in every request, so it is a pure function of its inputs: the same bytes
// each time keep the provider's prefix cache. The file's text (and name) is the user's: reminder tags in
// it are defused here, like any text from outside the system.
import { type ExtractedText, type FileOutline, outlineOf } from "../../core/file-text";
import { type Attachment, fileSizeWords } from "../../protocol";
import { estimateTokens } from "../context/window";
import { neutralizeReminders } from "../system-items/forgery";

const count = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** `[File: report.pdf (PDF, 1.2 MB, 12 pages)]`, `[File: data.csv (text/csv, 14 KB, 812 lines)]`. */
export function fileHeader(file: Attachment): string {
  const type = file.kind === "pdf" ? "PDF" : file.content_type;
  const parts = [type, fileSizeWords(file.size)];
  if (file.pages !== undefined) parts.push(count(file.pages, "page"));
  else if (file.lines !== undefined) parts.push(count(file.lines, "line"));
  return neutralizeReminders(`[File: ${file.name} (${parts.join(", ")})]`);
}

/** The whole text as the model reads it: a PDF's pages each after a `[Page N]` line. */
const wholeText = (ext: ExtractedText) =>
  ext.pages ? ext.pages.map((page, i) => `[Page ${i + 1}]\n${page}`).join("\n") : ext.text;

function outlineLines(outline: FileOutline): string[] {
  const lines: string[] = [];
  if (outline.pages !== undefined) lines.push(`Pages: ${outline.pages.toLocaleString("en-US")}`);
  if (outline.headings?.length) {
    lines.push("Headings (with their line):");
    for (const h of outline.headings)
      lines.push(
        `${"  ".repeat(Math.max(0, h.level - 1))}- ${h.text} (line ${h.line}${h.page ? `, page ${h.page}` : ""})`,
      );
  }
  if (outline.columns?.length) lines.push(`Columns: ${outline.columns.join(", ")}`);
  if (outline.keys?.length) lines.push(`Keys: ${outline.keys.join(", ")}`);
  return lines;
}

/**
 * The System item body for a document attached to a user message: the header and the whole text when
 * its estimated tokens are at most `inlineTokens` (`inline: true`); otherwise the header, the outline and
 * how to read it with `file_read` and `file_search` (`inline: false`).
 */
export function fileBody(
  file: Attachment,
  ext: ExtractedText,
  inlineTokens: number,
): { body: string; inline: boolean } {
  const header = fileHeader(file);
  const text = wholeText(ext);
  const tokens = estimateTokens(text);
  if (tokens <= inlineTokens) return { body: `${header}\n${neutralizeReminders(text)}`, inline: true };
  const paged = Boolean(ext.pages?.length);
  const how = paged ? 'pages: "1-5" or lines: "1-200"' : 'lines: "1-200"';
  const body = [
    header,
    `This file is too long to show whole (about ${tokens.toLocaleString("en-US")} tokens); its outline:`,
    ...outlineLines(outlineOf(file, ext)),
    `Read it with file_read (file: "${file.id}", ${how}) and find in it with file_search.`,
  ].join("\n");
  return { body: neutralizeReminders(body), inline: false };
}
