// The file tools (agent/tools/files.ts) over an in-memory ConversationFiles: reads by pages and lines, by
// id and by name, search, and the sentences the model gets when a file or the files are not there. The
// tools that touch the vault (file_to_note, note_to_file) are tested against D1 in test/workers/file-tools.test.ts.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ConversationFiles } from "../../../agent/files/conversation-files";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { fileTools, offeredTools } from "../../../agent/tools/files";
import { type ToolContext, ToolError } from "../../../agent/tools/tool";
import type { ExtractedText } from "../../../core/file-text";
import type { Attachment, Message } from "../../../protocol";

/** Any use of the database fails the test: these calls never reach it. */
const noDatabase = new Proxy({} as D1Database, {
  get(_target, key) {
    throw new Error(`no database here (db.${String(key)} was used)`);
  },
});

function fakeFiles(entries: { file: Attachment; text?: ExtractedText }[]): ConversationFiles {
  return {
    list: async () => entries.map((e) => e.file),
    text: async (ref) => {
      const e = entries.find((x) => x.file.id === ref) ?? entries.findLast((x) => x.file.name === ref);
      return e?.text && { file: e.file, text: e.text };
    },
    create: async () => {
      throw new Error("not in these tests");
    },
  };
}

const pages = Array.from({ length: 5 }, (_, i) => `Page ${i + 1} text\nrevenue ${i + 1}`);
const report: Attachment = {
  id: "f_pdf",
  name: "report.pdf",
  content_type: "application/pdf",
  kind: "pdf",
  size: 900,
  pages: 5,
  lines: 10,
};
const data: Attachment = { id: "f_csv", name: "data.csv", content_type: "text/csv", kind: "text", size: 40, lines: 3 };
const photo: Attachment = { id: "f_png", name: "photo.png", content_type: "image/png", kind: "image", size: 10 };
const files = fakeFiles([
  { file: report, text: { text: pages.join("\n"), pages } },
  { file: data, text: { text: "id,amount\n1,10\n2,20" } },
  { file: photo },
]);

const ctx: ToolContext = {
  db: noDatabase,
  userId: "u",
  conversationId: "c",
  signal: new AbortController().signal,
  step: 1,
  callId: "call",
  files,
};

// biome-ignore lint/suspicious/noExplicitAny: results are inspected loosely
const run = (name: string, args: unknown, as: Partial<ToolContext> = {}): Promise<any> => {
  const tool = fileTools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.execute(tool.args.parse(args), { ...ctx, ...as });
};

describe("file tools", () => {
  it("are built in, with described arguments the model's JSON Schema can carry", () => {
    expect(fileTools.map((t) => t.name)).toEqual(["file_read", "file_search", "file_to_note", "note_to_file"]);
    for (const t of fileTools) {
      expect(BUILTIN_TOOLS).toContain(t);
      const schema = z.toJSONSchema(t.args, { io: "input" }) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties))
        expect(property.description, `${t.name}.${field}`).toBeTruthy();
    }
    expect(fileTools.filter((t) => t.readOnly).map((t) => t.name)).toEqual(["file_read", "file_search"]);
  });

  it("reads a PDF by pages, by id or by name", async () => {
    const byId = await run("file_read", { file: "f_pdf", pages: "2-3" });
    expect(byId).toEqual({
      file: { id: "f_pdf", name: "report.pdf" },
      range: { pages: "2-3" },
      total_pages: 5,
      total_lines: 10,
      text: "[Page 2]\nPage 2 text\nrevenue 2\n[Page 3]\nPage 3 text\nrevenue 3",
    });
    expect(await run("file_read", { file: "report.pdf", pages: "2-3" })).toEqual(byId);
  });

  it("reads a text by lines, or from the start", async () => {
    expect(await run("file_read", { file: "data.csv", lines: "2-3" })).toEqual({
      file: { id: "f_csv", name: "data.csv" },
      range: { lines: "2-3" },
      total_lines: 3,
      text: "1,10\n2,20",
    });
    expect((await run("file_read", { file: "f_csv" })).text).toBe("id,amount\n1,10\n2,20");
  });

  it("says what to ask for next when a range is longer than one read", async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${"x".repeat(20)}`).join("\n");
    const big: Attachment = { ...data, id: "f_big", name: "big.csv", lines: 3000 };
    const read = await run(
      "file_read",
      { file: "big.csv" },
      { files: fakeFiles([{ file: big, text: { text: long } }]) },
    );
    expect(read.text.length).toBeLessThanOrEqual(12_000);
    expect(read.next.lines).toMatch(/^\d+-3000$/);
    expect(read.range.lines).toMatch(/^1-\d+$/);
  });

  it("turns a range the file does not have into a ToolError with the file's size", async () => {
    const past = run("file_read", { file: "report.pdf", pages: "9" });
    await expect(past).rejects.toBeInstanceOf(ToolError);
    await expect(past).rejects.toThrow("This file has 5 pages");
    await expect(run("file_read", { file: "data.csv", pages: "1" })).rejects.toThrow(
      "This file has no pages; read it by lines (1-3)",
    );
  });

  it("names the conversation's files when the one asked for is not there", async () => {
    const missing = run("file_read", { file: "summary.pdf" });
    await expect(missing).rejects.toBeInstanceOf(ToolError);
    await expect(missing).rejects.toThrow(
      'No file "summary.pdf" in this conversation. Its files: report.pdf (f_pdf), data.csv (f_csv), photo.png (f_png)',
    );
    await expect(run("file_search", { file: "photo.png", query: "x" })).rejects.toThrow(
      "photo.png is an image: it has no text to read",
    );
    await expect(run("file_read", { file: "x" }, { files: fakeFiles([]) })).rejects.toThrow(
      "this conversation has no files",
    );
  });

  it("says so when the conversation has no files to reach", async () => {
    for (const [name, args] of [
      ["file_read", { file: "report.pdf" }],
      ["file_search", { file: "report.pdf", query: "x" }],
      ["file_to_note", { file: "report.pdf", path: "r.md" }],
      ["note_to_file", { path: "r.md" }],
    ] as const) {
      const call = run(name, args, { files: undefined });
      await expect(call).rejects.toBeInstanceOf(ToolError);
      await expect(call).rejects.toThrow("Files are not available in this conversation");
    }
  });

  it("searches a file, with line and page numbers", async () => {
    expect(await run("file_search", { file: "report.pdf", query: "Revenue 4" })).toEqual({
      file: { id: "f_pdf", name: "report.pdf" },
      total: 1,
      hits: [{ line: 8, page: 4, text: "revenue 4" }],
    });
    const all = await run("file_search", { file: "report.pdf", query: "revenue", limit: 2 });
    expect(all.total).toBe(5);
    expect(all.hits).toHaveLength(2);
    expect(() => fileTools[1]?.args.parse({ file: "x", query: "" })).toThrow();
    expect(() => fileTools[1]?.args.parse({ file: "x", query: "q", limit: 51 })).toThrow();
  });

  it("refuses to save as a note a text longer than a note holds, before writing anything", async () => {
    const huge: Attachment = { ...data, id: "f_huge", name: "huge.txt" };
    const call = run(
      "file_to_note",
      { file: "huge.txt", path: "huge.md" },
      { files: fakeFiles([{ file: huge, text: { text: "x".repeat(100_001) } }]) },
    );
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow("a note holds at most 100,000");
  });
});

describe("offeredTools", () => {
  const user = (attachments?: Attachment[]): Message => ({
    seq: 1,
    id: "m1",
    created_at: "2026-11-28T00:00:00.000Z",
    role: "user",
    content: "hi",
    ...(attachments ? { attachments } : {}),
  });
  const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

  it("leaves the file tools out until a message of the path carries a file", () => {
    expect(names(offeredTools(BUILTIN_TOOLS, [user()]))).not.toContain("file_read");
    expect(names(offeredTools(BUILTIN_TOOLS, [user([])]))).not.toContain("note_to_file");
    const file: Attachment = { id: "f_1", name: "a.txt", content_type: "text/plain", kind: "text", size: 1 };
    expect(names(offeredTools(BUILTIN_TOOLS, [user(), user([file])]))).toEqual(names(BUILTIN_TOOLS));
    expect(names(offeredTools(BUILTIN_TOOLS, [user()]))).toEqual(
      names(BUILTIN_TOOLS).filter((n) => !["file_read", "file_search", "file_to_note", "note_to_file"].includes(n)),
    );
  });
});
