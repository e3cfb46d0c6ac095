// The file tools that touch the vault (agent/tools/files.ts): a file's text saved as a note, once per call,
// and a note attached to the conversation as a Markdown file. The conversation's files are an in-memory
// ConversationFiles here; reads and search are in test/node/agent/file-tools.test.ts.
import { describe, expect, it } from "vitest";
import type { ConversationFiles } from "../../agent/files/conversation-files";
import { fileTools } from "../../agent/tools/files";
import { ToolError } from "../../agent/tools/tool";
import type { ExtractedText } from "../../core/file-text";
import { readNote, writeNote } from "../../d1/notes";
import { ALREADY_DONE } from "../../d1/tool-effects";
import type { Attachment } from "../../protocol";
import { toolsFor } from "./tool-runner";

const report: Attachment = {
  id: "f_pdf",
  name: "report.pdf",
  content_type: "application/pdf",
  kind: "pdf",
  size: 900,
  pages: 2,
  lines: 2,
};

/** The conversation's files in memory; `created` records what create made, `full` makes it refuse. */
function fakeFiles(entries: { file: Attachment; text: ExtractedText }[], full = false) {
  const created: { name: string; text: string }[] = [];
  const files: ConversationFiles = {
    list: async () => entries.map((e) => e.file),
    text: async (ref) => entries.find((e) => e.file.id === ref || e.file.name === ref),
    create: async (name, text) => {
      if (full) throw new Error("The user's files are full: there is no room for another file");
      created.push({ name, text });
      return { id: `f_new${created.length}`, name, content_type: "text/markdown", kind: "text", size: text.length };
    },
  };
  return { files, created };
}

describe("file_to_note and note_to_file", () => {
  it("saves a file's whole text as a note, once per call", async () => {
    const { run, user, db } = await toolsFor(fileTools);
    const { files } = fakeFiles([{ file: report, text: { text: "first\nsecond", pages: ["first", "second"] } }]);
    const call = { files, turnId: "turn", callId: "same" };
    expect(await run("file_to_note", { file: "report.pdf", path: "/docs/report.md" }, call)).toEqual({
      path: "docs/report.md",
      chars: 12,
    });
    expect((await readNote(db, user.id, "docs/report.md"))?.content).toBe("first\nsecond");
    // The same call after a restart is recognised, not done again.
    expect(await run("file_to_note", { file: "f_pdf", path: "docs/report.md" }, call)).toEqual({
      path: "docs/report.md",
      chars: 12,
      already_done: ALREADY_DONE,
    });
  });

  it("refuses a file longer than a note holds, and writes nothing", async () => {
    const { run, user, db } = await toolsFor(fileTools);
    const { files } = fakeFiles([
      { file: { ...report, kind: "text", name: "big.txt" }, text: { text: "x".repeat(100_001) } },
    ]);
    const call = run("file_to_note", { file: "big.txt", path: "big.md" }, { files });
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow("a note holds at most 100,000");
    expect(await readNote(db, user.id, "big.md")).toBeUndefined();
  });

  it("attaches a note as a Markdown file named by its last segment", async () => {
    const { run, user, db } = await toolsFor(fileTools);
    await writeNote(db, user.id, "projects/plan", "# Plan\nsteps");
    await writeNote(db, user.id, "projects/notes.md", "notes");
    const { files, created } = fakeFiles([]);
    const { file } = await run("note_to_file", { path: "projects/plan" }, { files });
    expect(file).toMatchObject({ id: "f_new1", name: "plan.md", content_type: "text/markdown", kind: "text" });
    await run("note_to_file", { path: "projects/notes.md" }, { files });
    expect(created).toEqual([
      { name: "plan.md", text: "# Plan\nsteps" },
      { name: "notes.md", text: "notes" },
    ]);
  });

  it("answers a missing note and full storage with a ToolError", async () => {
    const { run, user, db } = await toolsFor(fileTools);
    const missing = run("note_to_file", { path: "nowhere.md" }, { files: fakeFiles([]).files });
    await expect(missing).rejects.toBeInstanceOf(ToolError);
    await expect(missing).rejects.toThrow("No note at nowhere.md");
    await writeNote(db, user.id, "a.md", "a");
    const full = run("note_to_file", { path: "a.md" }, { files: fakeFiles([], true).files });
    await expect(full).rejects.toBeInstanceOf(ToolError);
    await expect(full).rejects.toThrow("The user's files are full");
  });
});
