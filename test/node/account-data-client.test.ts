// Settings → Account → Your data in the browser (client/src/lib/): the export's progress read from the
// zip's bytes as they stream in, whatever the chunks' sizes, and what an import did, in words.
import { strToU8, Zip, ZipDeflate } from "fflate";
import { describe, expect, it } from "vitest";
import { exportProgressWords, importProgressWords, importSummaryLines } from "../../client/src/lib/account-data-words";
import { ZipFileCounter } from "../../client/src/lib/zip-progress";
import { type ImportSummary, isConversationFile } from "../../protocol";

/** A zip as the Worker streams it (fflate's streaming Zip, deflated), and where each file's bytes end. */
function streamedZip(files: [string, string][]): { bytes: Uint8Array; ends: number[] } {
  const chunks: Uint8Array[] = [];
  const ends: number[] = [];
  let length = 0;
  const zip = new Zip((_error, chunk) => {
    chunks.push(chunk);
    length += chunk.length;
  });
  for (const [name, text] of files) {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(strToU8(text), true);
    ends.push(length);
  }
  zip.end();
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, ends };
}

const random = (n: number) => Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 7).toString(36)).join(" ");

describe("the export's progress, from the zip's bytes", () => {
  const files: [string, string][] = [
    ["oracle-export/manifest.json", "{}"],
    ["oracle-export/notes/conversations/not-one.json", "a note in a folder named conversations"],
    ["oracle-export/conversations/a.json", random(4000)],
    ["oracle-export/conversations/first-a.md", random(3000)],
    ["oracle-export/conversations/b.json", random(20)],
    ["oracle-export/conversations/second-b.md", "x"],
    ["oracle-export/conversations/c.json", random(9000)],
  ];
  const { bytes, ends } = streamedZip(files);

  it.each([1, 7, 29, 30, 31, 1000, 65536])("counts each conversation's file once, in chunks of %i bytes", (size) => {
    const counter = new ZipFileCounter(isConversationFile);
    const seen: number[] = [];
    for (let at = 0; at < bytes.length; at += size) {
      counter.push(bytes.subarray(at, at + size));
      seen.push(counter.count);
    }
    expect(counter.count).toBe(3);
    // It never goes back, and it has counted a conversation by the time its file's bytes are in.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const after = (end: number) => seen[Math.ceil(end / size) - 1] ?? 0;
    for (const [nth, file] of [2, 4, 6].entries()) expect(after(ends[file] ?? 0)).toBeGreaterThanOrEqual(nth + 1);
  });

  it("counts nothing in bytes that only look like a header", () => {
    const counter = new ZipFileCounter(isConversationFile);
    counter.push(new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(26), 0x41, 0x42]));
    counter.push(strToU8("PK\u0003\u0004 and then some text that is no zip header at all, long enough"));
    expect(counter.count).toBe(0);
  });
});

describe("what the page says", () => {
  it("says how far the export and the import have got", () => {
    expect(exportProgressWords({ conversations: 12, total: 40, bytes: 3_300_000 })).toBe(
      "Exporting… 12 of 40 conversations (3.1 MB so far)",
    );
    expect(exportProgressWords({ conversations: 0, total: null, bytes: 900 })).toBe("Exporting… (1 KB so far)");
    expect(importProgressWords({ phase: "importing", done: 3, total: 1 })).toBe("Importing… 3 of 1 conversation");
  });

  it("says what an import did, what came in under another name, and what was left out", () => {
    const summary: ImportSummary = {
      conversations: 2,
      messages: 11,
      notes: 3,
      tasks: 1,
      knowledge: 1,
      workflows: 0,
      schedules: 1,
      projects: 1,
      memories: 2,
      settings: true,
      renamed_notes: [{ from: "ideas.md", to: "ideas-imported.md" }],
      renamed_entries: [],
      left_out: ["the default model (m): it is not one of your models here"],
    };
    expect(importSummaryLines(summary, "oracle")).toEqual([
      "Imported 2 conversations (11 messages), 3 notes, 1 task, 1 knowledge entry, 1 schedule, 1 project, 2 memories.",
      "Imported schedules are paused, so nothing runs unexpectedly: resume them on the Schedules page.",
      "Your settings were applied.",
      "1 note came in under a new path, as theirs was taken: ideas.md → ideas-imported.md.",
      "Left out: the default model (m): it is not one of your models here.",
    ]);
    const chatgpt = {
      ...summary,
      notes: 0,
      tasks: 0,
      knowledge: 0,
      schedules: 0,
      settings: false,
      renamed_notes: [],
      left_out: [],
    };
    expect(importSummaryLines(chatgpt, "chatgpt")).toEqual([
      "Imported 2 conversations (11 messages) from ChatGPT, each with every version of its answers.",
    ]);
  });
});
