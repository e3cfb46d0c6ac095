// A file's text as the model reads it (core/file-text.ts): ranges by pages and lines within one read's
// size, saying what comes next; search with line and page numbers; the outline of a long file.
import { describe, expect, it } from "vitest";
import {
  type ExtractedText,
  FILE_READ_MAX_CHARS,
  lineCount,
  outlineOf,
  readFile,
  searchFile,
} from "../../core/file-text";

const pdf = (pages: string[]): ExtractedText => ({ text: pages.join("\n"), pages });
const numbered = (n: number, prefix = "line") => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join("\n");

describe("readFile", () => {
  it("reads pages, each after a [Page N] line, and says how many there are", () => {
    const ext = pdf(["one\nuno", "two", "three", "four"]);
    expect(readFile(ext, { pages: "2" })).toEqual({
      text: "[Page 2]\ntwo",
      range: "2",
      unit: "pages",
      total_pages: 4,
      total_lines: 5,
    });
    expect(readFile(ext, { pages: "1-3" }).text).toBe("[Page 1]\none\nuno\n[Page 2]\ntwo\n[Page 3]\nthree");
    // An end past the last page is the last page; no range is from the start, by pages.
    expect(readFile(ext, { pages: "3-99" })).toMatchObject({ range: "3-4", text: "[Page 3]\nthree\n[Page 4]\nfour" });
    expect(readFile(ext, { pages: "3-" }).range).toBe("3-4");
    expect(readFile(ext, {})).toMatchObject({ range: "1-4", unit: "pages" });
    // A PDF read by lines: its text's lines, no page markers.
    expect(readFile(ext, { lines: "2-3" })).toMatchObject({
      text: "uno\ntwo",
      range: "2-3",
      unit: "lines",
      total_pages: 4,
    });
  });

  it("reads lines, 1-based and inclusive, as they are", () => {
    const ext = { text: numbered(10) };
    expect(readFile(ext, { lines: "3-5" })).toEqual({
      text: "line 3\nline 4\nline 5",
      range: "3-5",
      unit: "lines",
      total_lines: 10,
    });
    expect(readFile(ext, { lines: "7" })).toMatchObject({ text: "line 7", range: "7" });
    expect(readFile(ext, { lines: " 9 - 20 " })).toMatchObject({ text: "line 9\nline 10", range: "9-10" });
    expect(readFile(ext, {})).toMatchObject({ range: "1-10", total_lines: 10 });
    expect(readFile(ext, {})).not.toHaveProperty("next");
    expect(readFile(ext, {})).not.toHaveProperty("total_pages");
  });

  it("cuts a long range at a line boundary, within maxChars, and says what comes next", () => {
    const ext = { text: numbered(1000) };
    const first = readFile(ext, { lines: "1-1000" }, 100);
    expect(first.text.length).toBeLessThanOrEqual(100);
    expect(first.text.endsWith("\n")).toBe(false);
    const shown = first.text.split("\n");
    expect(shown.at(-1)).toBe(`line ${shown.length}`);
    expect(first.range).toBe(`1-${shown.length}`);
    expect(first.next).toBe(`${shown.length + 1}-1000`);
    // Asking for next goes on where the last read ended, to the end of the range first asked.
    const second = readFile(ext, { lines: first.next }, 100);
    expect(second.text.split("\n")[0]).toBe(`line ${shown.length + 1}`);
    expect(readFile(ext, { lines: "1-5" }, 100)).not.toHaveProperty("next");
  });

  it("cuts a range of pages between pages", () => {
    const ext = pdf(Array.from({ length: 9 }, (_, i) => `${"x".repeat(30)} ${i + 1}`));
    const read = readFile(ext, { pages: "3-9" }, 100);
    expect(read).toMatchObject({ range: "3-4", next: "5-9", unit: "pages" });
    expect(read.text).toBe(`[Page 3]\n${"x".repeat(30)} 3\n[Page 4]\n${"x".repeat(30)} 4`);
  });

  it("reads a 300-page document page by page, each read within maxChars, to its last page", () => {
    const pages = Array.from(
      { length: 300 },
      (_, i) => `Page text ${i + 1}\n${"lorem ipsum ".repeat(40 + (i % 7) * 30)}`,
    );
    const ext = pdf(pages);
    let range: string | undefined = "1-300";
    const seen: number[] = [];
    let calls = 0;
    while (range !== undefined) {
      const read = readFile(ext, { pages: range });
      expect(read.unit).toBe("pages");
      expect(read.text.length).toBeLessThanOrEqual(FILE_READ_MAX_CHARS);
      for (const [, n] of read.text.matchAll(/^\[Page (\d+)\]$/gm)) seen.push(Number(n));
      range = read.next;
      calls++;
    }
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(calls).toBeGreaterThan(10);
    expect(readFile(ext, { pages: "300" }).text).toBe(`[Page 300]\n${pages[299]}`);
  });

  it("reads a page longer than one read by its lines, and a line longer than one read in parts", () => {
    const long = Array.from({ length: 50 }, (_, i) => `${i + 1} ${"y".repeat(20)}`).join("\n");
    const ext = pdf(["short", long, "after"]);
    const read = readFile(ext, { pages: "2-3" }, 100);
    expect(read.unit).toBe("lines");
    expect(read.text.startsWith("1 yyy")).toBe(true);
    expect(read.range).toMatch(/^2-\d+$/);
    expect(read.next).toMatch(/-52$/);

    // Minified JSON: one line of 250 characters, read 100 at a time with a column in `next`.
    const line = "a".repeat(250);
    const parts: string[] = [];
    let lines: string | undefined = "1";
    const ranges: string[] = [];
    while (lines !== undefined) {
      const r = readFile({ text: `${line}\nnext line` }, { lines }, 100);
      parts.push(r.text);
      ranges.push(r.range);
      lines = r.next;
    }
    expect(ranges).toEqual(["1:1-1:100", "1:101-1:200", "1:201-1"]);
    expect(parts.join("")).toBe(line);
  });

  it("never splits a surrogate pair", () => {
    const line = "😀".repeat(100);
    const first = readFile({ text: line }, {}, 51);
    expect(first.text).toBe("😀".repeat(25));
    expect(first.next).toBe("1:51-1");
    const second = readFile({ text: line }, { lines: first.next }, 51);
    expect(second.text).toBe("😀".repeat(25));
  });

  it("refuses ranges past the end, pages of a text, and malformed ranges with a sentence", () => {
    const ext = pdf(Array.from({ length: 300 }, (_, i) => `p${i + 1}`));
    expect(() => readFile(ext, { pages: "301" })).toThrow(RangeError);
    expect(() => readFile(ext, { pages: "301-310" })).toThrow("This file has 300 pages");
    expect(() => readFile({ text: numbered(812) }, { pages: "1" })).toThrow(
      "This file has no pages; read it by lines (1-812)",
    );
    expect(() => readFile({ text: numbered(812) }, { lines: "900-950" })).toThrow("This file has 812 lines");
    expect(() => readFile(ext, { pages: "0" })).toThrow(RangeError);
    expect(() => readFile(ext, { pages: "5-3" })).toThrow("ends before it starts");
    expect(() => readFile(ext, { pages: "abc" })).toThrow('pages must look like "3" or "3-5"');
    expect(() => readFile(ext, { pages: "1:5" })).toThrow(RangeError);
    expect(() => readFile(ext, { pages: "1", lines: "1" })).toThrow("not both");
    expect(() => readFile({ text: "" }, {})).toThrow("This file has no text");
  });
});

describe("searchFile", () => {
  it("finds lines that hold every word, ignoring case, with their page", () => {
    const ext = pdf(["Intro\nNet revenue grew", "Costs\nrevenue, NET of tax", "net only\nrevenue only"]);
    expect(searchFile(ext, "net REVENUE")).toEqual({
      total: 2,
      hits: [
        { line: 2, page: 1, text: "Net revenue grew" },
        { line: 4, page: 2, text: "revenue, NET of tax" },
      ],
    });
    expect(searchFile(ext, "only").hits.map((h) => [h.line, h.page])).toEqual([
      [5, 3],
      [6, 3],
    ]);
    expect(searchFile(ext, "absent")).toEqual({ hits: [], total: 0 });
    expect(searchFile(ext, "   ")).toEqual({ hits: [], total: 0 });
  });

  it("counts every match but gives the first `limit`, without pages for a text", () => {
    const ext = { text: numbered(100, "row") };
    const found = searchFile(ext, "row", 5);
    expect(found.total).toBe(100);
    expect(found.hits.map((h) => h.line)).toEqual([1, 2, 3, 4, 5]);
    expect(found.hits[0]).not.toHaveProperty("page");
  });

  it("cuts a long line to about 300 characters around its first match", () => {
    const line = `${"a ".repeat(500)}needle${" b".repeat(500)}`;
    const [hit] = searchFile({ text: line }, "needle").hits;
    expect(hit?.text.length).toBeLessThanOrEqual(300);
    expect(hit?.text).toContain("needle");
    expect(hit?.text.startsWith("…")).toBe(true);
    expect(hit?.text.endsWith("…")).toBe(true);
  });
});

describe("outlineOf", () => {
  it("lists a Markdown file's headings with their lines, not those in code blocks", () => {
    const text = "# Title\nintro\n## Part one ##\n```\n# not a heading\n```\n### Deep\n#nospace";
    const outline = outlineOf({ name: "a.md", content_type: "text/markdown", kind: "text" }, { text });
    expect(outline).toEqual({
      lines: 8,
      headings: [
        { level: 1, text: "Title", line: 1 },
        { level: 2, text: "Part one", line: 3 },
        { level: 3, text: "Deep", line: 7 },
      ],
    });
    const many = Array.from({ length: 80 }, (_, i) => `## H${i}`).join("\n");
    expect(
      outlineOf({ name: "b.md", content_type: "text/markdown", kind: "text" }, { text: many }).headings,
    ).toHaveLength(60);
  });

  it("gives a CSV's and a TSV's columns", () => {
    const csv = 'name,"amount, EUR",date\nx,1,2';
    expect(outlineOf({ name: "d.csv", content_type: "text/csv", kind: "text" }, { text: csv })).toEqual({
      lines: 2,
      columns: ["name", "amount, EUR", "date"],
    });
    const tsv = "a\tb\n1\t2";
    expect(
      outlineOf({ name: "d.tsv", content_type: "text/tab-separated-values", kind: "text" }, { text: tsv }).columns,
    ).toEqual(["a", "b"]);
    const wide = Array.from({ length: 150 }, (_, i) => `c${i}`).join(",");
    expect(outlineOf({ name: "w.csv", content_type: "text/csv", kind: "text" }, { text: wide }).columns).toHaveLength(
      100,
    );
  });

  it("gives a JSON document's top-level keys, an array's first element's, and none for invalid JSON", () => {
    const file = { name: "d.json", content_type: "application/json", kind: "text" as const };
    expect(outlineOf(file, { text: '{"a":1,\n"b":{"c":2}}' })).toEqual({ lines: 2, keys: ["a", "b"] });
    expect(outlineOf(file, { text: '[{"id":1,"name":"x"},{"other":2}]' }).keys).toEqual(["id", "name"]);
    expect(outlineOf(file, { text: "[1,2]" })).toEqual({ lines: 1 });
    expect(outlineOf(file, { text: "{not json" })).toEqual({ lines: 1 });
  });

  it("counts a PDF's pages and lines", () => {
    expect(outlineOf({ name: "r.pdf", content_type: "application/pdf", kind: "pdf" }, pdf(["a\nb", "c"]))).toEqual({
      lines: 3,
      pages: 2,
    });
  });
});

describe("lineCount", () => {
  it("counts what file_read numbers: the newline ending the last line starts no line of its own", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("one")).toBe(1);
    expect(lineCount("# Ideas\nTry the phone\n")).toBe(2);
    expect(lineCount("a\n\nb\n\n")).toBe(4);
    expect(readFile({ text: "# Ideas\nTry the phone\n" }, {}).total_lines).toBe(2);
  });
});
