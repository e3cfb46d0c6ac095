// The text of an uploaded file as the model reads it (docs/protocol.md "Files"): its outline, a range of
// it by pages or lines within a size the model can take, and the lines that hold some words. Pure: the
// upload extracts the text once (worker/files/extract.ts), the file tools and the attachment's System
// message (agent/files/file-body.ts) read it through these.
import type { Attachment } from "../protocol/files";

/** A file's text: `text` the whole of it (a PDF's pages joined with "\n"), `pages` a PDF's, one string a page. */
export interface ExtractedText {
  text: string;
  pages?: string[];
}

export interface FileOutline {
  lines: number;
  pages?: number;
  headings?: { level: number; text: string; line: number; page?: number }[];
  columns?: string[];
  keys?: string[];
}

/** At most this many characters come back from one `file_read`. */
export const FILE_READ_MAX_CHARS = 12_000;
const MAX_HEADINGS = 60;
const MAX_COLUMNS = 100;
const MAX_KEYS = 100;
const HIT_CHARS = 300;

/**
 * Lines as `file_read` numbers them and a file's `lines` counts them: split at "\n", none in "", and the
 * newline that ends a text's last line does not start another.
 */
const splitLines = (text: string): string[] => (text ? text.replace(/\n$/, "").split("\n") : []);

/** How many lines a text has (a file's `lines`). */
export const lineCount = (text: string): number => splitLines(text).length;

/** The first line of each page (1-based), for a text whose pages were joined with "\n". */
function pageStarts(pages: readonly string[]): number[] {
  const starts: number[] = [];
  let line = 1;
  for (const page of pages) {
    starts.push(line);
    line += page.split("\n").length;
  }
  return starts;
}

/** The page a line is on (1-based), given each page's first line. */
function pageOf(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** An end index that does not split a surrogate pair. */
function safeEnd(text: string, i: number): number {
  const code = text.charCodeAt(i - 1);
  return code >= 0xd800 && code <= 0xdbff ? i - 1 : i;
}

/** A start index that does not split a surrogate pair. */
function safeStart(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return i > 0 && code >= 0xdc00 && code <= 0xdfff ? i + 1 : i;
}

const isMarkdown = (file: Pick<Attachment, "name" | "content_type">) =>
  file.content_type === "text/markdown" || /\.(md|markdown)$/i.test(file.name);

function markdownHeadings(lines: readonly string[]): NonNullable<FileOutline["headings"]> {
  const headings: NonNullable<FileOutline["headings"]> = [];
  let fence: string | undefined;
  for (const [i, line] of lines.entries()) {
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark) {
      if (!fence) fence = fenceMark[0];
      else if (fenceMark[0] === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading?.[2]) continue;
    headings.push({ level: heading[1]?.length ?? 1, text: heading[2], line: i + 1 });
    if (headings.length >= MAX_HEADINGS) break;
  }
  return headings;
}

/** A CSV or TSV header's cells, quotes taken off (a quoted cell may hold the separator). */
function headerCells(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && !cell.trim()) quoted = true;
    else if (c === separator) {
      cells.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells.slice(0, MAX_COLUMNS);
}

function jsonKeys(text: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const first = Array.isArray(value) ? value[0] : value;
  if (!first || typeof first !== "object" || Array.isArray(first)) return undefined;
  return Object.keys(first).slice(0, MAX_KEYS);
}

/**
 * What a file holds, for a model that cannot read it whole: its size in lines (and pages), a Markdown
 * file's headings, a CSV's or TSV's columns, a JSON document's top-level keys (an array's: its first
 * element's; JSON Lines: the first record's).
 */
export function outlineOf(file: Pick<Attachment, "name" | "content_type" | "kind">, ext: ExtractedText): FileOutline {
  const lines = splitLines(ext.text);
  const outline: FileOutline = { lines: lines.length };
  if (ext.pages) outline.pages = ext.pages.length;
  if (file.kind !== "text") return outline;
  const type = file.content_type;
  if (isMarkdown(file)) {
    const headings = markdownHeadings(lines);
    if (headings.length) outline.headings = headings;
  } else if (type === "text/csv" || type === "text/tab-separated-values") {
    const header = lines.find((l) => l.trim());
    if (header) outline.columns = headerCells(header, type === "text/csv" ? "," : "\t");
  } else if (type === "application/json" || /\.json$/i.test(file.name)) {
    const keys = jsonKeys(ext.text);
    if (keys?.length) outline.keys = keys;
  } else if (type === "application/jsonl" || /\.jsonl$/i.test(file.name)) {
    const keys = jsonKeys(lines.find((l) => l.trim()) ?? "");
    if (keys?.length) outline.keys = keys;
  }
  return outline;
}

export interface FileRead {
  text: string;
  /** What came back, in `unit`: "3-5", or "120-240", or "5:1-5:12000" (a line longer than a read, in parts). */
  range: string;
  /** What to ask for next, in `unit`, when the range asked for was longer than one read. */
  next?: string;
  /** Which of `file_read`'s arguments `range` and `next` are for: pages, or lines (also for a page too long for one read). */
  unit: "pages" | "lines";
  total_pages?: number;
  total_lines: number;
}

interface Span {
  start: number;
  /** The first character of the start line to read, 1-based (a long line read in parts). */
  column: number;
  /** Inclusive; undefined: to the end. */
  end?: number;
}

const RANGE = /^\s*(\d+)(?::(\d+))?\s*(?:([-–])\s*(\d+)?\s*)?$/;

function parseRange(raw: string, unit: "pages" | "lines"): Span {
  const match = RANGE.exec(raw);
  const example = unit === "pages" ? '"3" or "3-5"' : '"120" or "120-240"';
  if (!match || (unit === "pages" && match[2] !== undefined))
    throw new RangeError(`${unit} must look like ${example}, not "${raw}"`);
  const start = Number(match[1]);
  const column = match[2] === undefined ? 1 : Number(match[2]);
  const end = match[4] !== undefined ? Number(match[4]) : match[3] ? undefined : start;
  if (start < 1 || column < 1) throw new RangeError(`${unit} are counted from 1: ask for ${example}`);
  if (end !== undefined && end < start) throw new RangeError(`${unit} "${raw}" ends before it starts`);
  return { start, column, end };
}

/** "5", "5-9", "5:12001-9": where a read starts, in the form `next` gives and `parseRange` reads. */
const spanText = (start: number, column: number, end: number) =>
  `${column > 1 ? `${start}:${column}` : start}${end !== start || column > 1 ? `-${end}` : ""}`;

function readLines(lines: readonly string[], span: Span, maxChars: number): Omit<FileRead, "unit" | "total_pages"> {
  const total = lines.length;
  if (!total) throw new RangeError("This file has no text");
  if (span.start > total)
    throw new RangeError(`This file has ${total} lines; line ${span.start} is past its end (read lines 1-${total})`);
  const end = Math.min(span.end ?? total, total);
  const parts: string[] = [];
  let size = 0;
  for (let line = span.start; line <= end; line++) {
    const whole = lines[line - 1] ?? "";
    const from = line === span.start ? Math.min(safeStart(whole, span.column - 1), whole.length) : 0;
    const piece = from ? whole.slice(from) : whole;
    const added = piece.length + (parts.length ? 1 : 0);
    if (size + added <= maxChars) {
      parts.push(piece);
      size += added;
      continue;
    }
    if (parts.length)
      return {
        text: parts.join("\n"),
        range: spanText(span.start, span.column, line - 1),
        next: spanText(line, 1, end),
        total_lines: total,
      };
    // One line longer than a whole read (minified JSON, a PDF page without line breaks): in parts.
    let cut = safeEnd(piece, maxChars);
    if (cut <= 0) cut = Math.min(2, piece.length);
    const last = from + cut;
    return {
      text: piece.slice(0, cut),
      range: `${line}:${from + 1}-${line}:${last}`,
      next: spanText(line, last + 1, end),
      total_lines: total,
    };
  }
  return { text: parts.join("\n"), range: spanText(span.start, span.column, end), total_lines: total };
}

function readPages(ext: ExtractedText, pages: readonly string[], span: Span, maxChars: number): FileRead {
  const lines = splitLines(ext.text);
  const totals = { total_pages: pages.length, total_lines: lines.length };
  if (span.start > pages.length)
    throw new RangeError(
      `This file has ${pages.length} pages; page ${span.start} is past its end (read pages 1-${pages.length})`,
    );
  const end = Math.min(span.end ?? pages.length, pages.length);
  const parts: string[] = [];
  let size = 0;
  for (let page = span.start; page <= end; page++) {
    const chunk = `[Page ${page}]\n${pages[page - 1] ?? ""}`;
    const added = chunk.length + (parts.length ? 1 : 0);
    if (size + added <= maxChars) {
      parts.push(chunk);
      size += added;
      continue;
    }
    if (parts.length)
      return {
        text: parts.join("\n"),
        range: spanText(span.start, 1, page - 1),
        next: spanText(page, 1, end),
        unit: "pages",
        ...totals,
      };
    // A page longer than a whole read: its lines, as far as they go, and the rest asked for by lines.
    const starts = pageStarts(pages);
    const lastLine = end < pages.length ? (starts[end] ?? lines.length + 1) - 1 : lines.length;
    return {
      ...readLines(lines, { start: starts[page - 1] ?? 1, column: 1, end: lastLine }, maxChars),
      unit: "lines",
      total_pages: pages.length,
    };
  }
  return { text: parts.join("\n"), range: spanText(span.start, 1, end), unit: "pages", ...totals };
}

/**
 * A part of a file, at most `maxChars` characters: `pages` ("3", "3-5", 1-based and inclusive; a PDF's
 * only), or `lines` ("120-240"), or from the start. Each page comes after a `[Page N]` line; lines come
 * as they are. A range longer than one read is cut at a page or line boundary: `range` says what came
 * back and `next` what to ask for next. A range that starts past the end, or pages of a file that has
 * none, is a RangeError whose message the model can act on.
 */
export function readFile(
  ext: ExtractedText,
  range: { pages?: string; lines?: string },
  maxChars = FILE_READ_MAX_CHARS,
): FileRead {
  if (range.pages !== undefined && range.lines !== undefined) throw new RangeError("Give pages or lines, not both");
  const pages = ext.pages;
  if (range.pages !== undefined) {
    if (!pages?.length) {
      const total = splitLines(ext.text).length;
      throw new RangeError(`This file has no pages; read it by lines (1-${total})`);
    }
    return readPages(ext, pages, parseRange(range.pages, "pages"), maxChars);
  }
  if (range.lines === undefined && pages?.length) return readPages(ext, pages, { start: 1, column: 1 }, maxChars);
  const span = range.lines === undefined ? { start: 1, column: 1 } : parseRange(range.lines, "lines");
  const read = readLines(splitLines(ext.text), span, maxChars);
  return { ...read, unit: "lines", ...(pages?.length ? { total_pages: pages.length } : {}) };
}

/** A line cut to about `HIT_CHARS` characters around `at`, "…" where it was cut. */
function around(line: string, at: number, length: number): string {
  if (line.length <= HIT_CHARS) return line;
  const room = HIT_CHARS - 2;
  let start = Math.max(0, Math.min(at - Math.floor((room - length) / 3), line.length - room));
  start = safeStart(line, start);
  const end = safeEnd(line, Math.min(line.length, start + room));
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/**
 * The lines that hold every word of `query`, ignoring case, with their line (and page) numbers: the
 * first `limit`, each cut to about 300 characters around its first match, and how many there are.
 */
export function searchFile(
  ext: ExtractedText,
  query: string,
  limit = 20,
): { hits: { line: number; page?: number; text: string }[]; total: number } {
  const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
  if (!words.length) return { hits: [], total: 0 };
  const starts = ext.pages?.length ? pageStarts(ext.pages) : undefined;
  const hits: { line: number; page?: number; text: string }[] = [];
  let total = 0;
  for (const [i, line] of splitLines(ext.text).entries()) {
    const lower = line.toLowerCase();
    if (!words.every((w) => lower.includes(w))) continue;
    total++;
    if (hits.length >= limit) continue;
    // Lower-casing keeps the length for all but a few letters (İ): then the position is near enough.
    const first = Math.min(...words.map((w) => lower.indexOf(w)));
    const text = around(line, Math.min(first, line.length), words[0]?.length ?? 0);
    hits.push({ line: i + 1, ...(starts ? { page: pageOf(starts, i + 1) } : {}), text });
  }
  return { hits, total };
}
