// Issue 45, the client's pure file logic: the checks the composer makes before a byte is uploaded
// (client/src/lib/attach-rules.ts: a type, a size, a count or a total that would be refused, each said
// in a sentence that names the file), the name a pasted image gets, an upload's failure in words; a file
// in words wherever the app names one (lib/file-words.ts); a share link's words with its files
// (lib/shares.ts); a file tool's arguments as rows (lib/readable-args.ts); and Settings → Models' "Reads images" in and
// out of a provider's models (pages/settings/models/model-draft.ts).
import { describe, expect, it } from "vitest";
import {
  type AttachLimits,
  checkFiles,
  looksLikeImage,
  pastedName,
  uploadFailure,
} from "../../client/src/lib/attach-rules";
import {
  attachedFileSentence,
  attachmentLine,
  blindModelWarning,
  extensionOf,
  typeWords,
} from "../../client/src/lib/file-words";
import { fileToolArgs } from "../../client/src/lib/readable-args";
import { shareIncludes } from "../../client/src/lib/shares";
import { readDrafts, toDraft } from "../../client/src/pages/settings/models/model-draft";
import { ACCEPTED_EXTENSIONS, type Attachment, MAX_ATTACHMENTS } from "../../protocol";

const MB = 1024 * 1024;
const LIMITS: AttachLimits = {
  max_file_bytes: 20 * MB,
  max_total_bytes: 500 * MB,
  max_attachments: MAX_ATTACHMENTS,
  accepted_extensions: [...ACCEPTED_EXTENSIONS],
  used_bytes: 0,
};
const none = { count: 0, bytes: 0 };
const file = (name: string, size = 1000) => ({ name, size });

describe("before an upload", () => {
  it("takes the types the server takes, by extension in any case, and refuses the rest by name", () => {
    const given = [file("chart.PNG"), file("report.pdf"), file("notes.docx"), file("Makefile"), file("data.csv")];
    const { accepted, refusals } = checkFiles(given, LIMITS, none);
    expect(accepted.map((f) => f.name)).toEqual(["chart.PNG", "report.pdf", "data.csv"]);
    expect(refusals).toEqual([
      "notes.docx: this type of file can't be attached. Images, PDFs and text files can.",
      "Makefile: this type of file can't be attached. Images, PDFs and text files can.",
    ]);
  });

  it("refuses a file over the size limit with both sizes, and an empty one", () => {
    const { accepted, refusals } = checkFiles([file("video.png", 31 * MB), file("empty.txt", 0)], LIMITS, none);
    expect(accepted).toEqual([]);
    expect(refusals).toEqual(["video.png is 31 MB; files can be at most 20 MB.", "empty.txt is empty."]);
    // At the limit exactly, it goes.
    expect(checkFiles([file("edge.png", 20 * MB)], LIMITS, none).accepted).toHaveLength(1);
  });

  it("takes at most 10 files in one message, counting those the composer holds, and says so once", () => {
    const eight = Array.from({ length: 8 }, (_, i) => file(`part-${i}.txt`));
    const { accepted, refusals } = checkFiles(eight, LIMITS, { count: 3, bytes: 0 });
    expect(accepted.map((f) => f.name)).toEqual([
      "part-0.txt",
      "part-1.txt",
      "part-2.txt",
      "part-3.txt",
      "part-4.txt",
      "part-5.txt",
      "part-6.txt",
    ]);
    expect(refusals).toEqual(["At most 10 files in one message."]);
    // A refused one does not take a place.
    expect(checkFiles([file("x.docx"), ...eight.slice(0, 2)], LIMITS, { count: 8, bytes: 0 }).accepted).toHaveLength(2);
  });

  it("refuses what would pass the user's total, counting uploads under way", () => {
    const limits = { ...LIMITS, used_bytes: 490 * MB };
    const { accepted, refusals } = checkFiles([file("a.png", 6 * MB), file("b.png", 6 * MB)], limits, {
      count: 1,
      bytes: 2 * MB,
    });
    expect(accepted.map((f) => f.name)).toEqual(["a.png"]);
    expect(refusals).toEqual([
      "b.png does not fit: your files take 498 MB of 500 MB. Deleting conversations with files makes room.",
    ]);
  });

  it("names a pasted image that has no name of its own by its time and type", () => {
    const at = new Date("2026-03-12T14:05:09.123Z");
    expect(pastedName("image.png", "image/png", at)).toBe("pasted-image-2026-03-12-14-05-09.png");
    expect(pastedName("", "image/jpeg", at)).toBe("pasted-image-2026-03-12-14-05-09.jpg");
    expect(pastedName("blob", "image/webp", at)).toBe("pasted-image-2026-03-12-14-05-09.webp");
    expect(pastedName("screenshot 1.png", "image/png", at)).toBe("screenshot 1.png");
    expect(pastedName("report.pdf", "application/pdf", at)).toBe("report.pdf");
  });

  it("shows a thumbnail for raster images only, never for an SVG", () => {
    expect(looksLikeImage("a.png")).toBe(true);
    expect(looksLikeImage("a.JPEG")).toBe(true);
    expect(looksLikeImage("pasted", "image/png")).toBe(true);
    expect(looksLikeImage("a.svg", "image/svg+xml")).toBe(false);
    expect(looksLikeImage("a.svg")).toBe(false);
    expect(looksLikeImage("a.pdf", "application/pdf")).toBe(false);
  });

  it("says an upload's failure in the server's words, or what went wrong on the way", () => {
    const body = JSON.stringify({ error: { code: "unsupported_file", message: "photo.bmp is not an image we keep" } });
    expect(uploadFailure("photo.bmp", 415, body)).toBe("photo.bmp is not an image we keep");
    expect(uploadFailure("a.png", 0, "")).toBe(
      "a.png was not uploaded: the server cannot be reached. Check your connection.",
    );
    expect(uploadFailure("a.png", 413, "<html>")).toBe("a.png is too large.");
    expect(uploadFailure("a.png", 502, "")).toBe("a.png was not uploaded (HTTP 502). Try again.");
  });
});

describe("a file in words", () => {
  const pdf: Attachment = {
    id: "f1",
    name: "report.pdf",
    content_type: "application/pdf",
    kind: "pdf",
    size: 34_000,
    pages: 12,
    lines: 400,
  };
  const md: Attachment = {
    id: "f2",
    name: "notes.md",
    content_type: "text/markdown",
    kind: "text",
    size: 900,
    lines: 1,
  };
  const png: Attachment = { id: "f3", name: "chart.png", content_type: "image/png", kind: "image", size: 1_300_000 };

  it("gives a chip its type, length and size", () => {
    expect(attachmentLine(pdf)).toBe("PDF · 12 pages · 33 KB");
    expect(attachmentLine(md)).toBe("Markdown · 1 line · 900 B");
    expect(attachmentLine(png)).toBe("PNG image · 1.2 MB");
    expect(typeWords({ name: "main.py", content_type: "text/x-python", kind: "text" })).toBe("PY text");
    expect(typeWords({ name: "page.html", content_type: "text/html", kind: "text" })).toBe("HTML");
    expect(typeWords({ name: "README", content_type: "text/plain", kind: "text" })).toBe("Text");
  });

  it("says what the agent was given of a document in one line", () => {
    expect(attachedFileSentence(pdf, true)).toBe("Read report.pdf · 12 pages");
    expect(attachedFileSentence(md, undefined)).toBe("Read notes.md · 1 line");
    expect(attachedFileSentence(pdf, false)).toBe("report.pdf is long: the agent reads it by parts");
  });

  it("warns of a model that cannot see; reads a name's extension", () => {
    expect(blindModelWarning("llama-3")).toBe("llama-3 can't see images: it will get only the file's name.");
    expect([extensionOf("a.tar.GZ"), extensionOf("noext"), extensionOf(".env")]).toEqual([".gz", "", ".env"]);
  });

  it("says a share link shows the files", () => {
    expect(shareIncludes({ include_system: false, include_tools: false, include_files: true })).toBe("With files");
    expect(shareIncludes({ include_system: true, include_tools: false, include_files: true })).toBe(
      "With system messages and files",
    );
    expect(shareIncludes({ include_system: true, include_tools: true, include_files: true })).toBe(
      "With system messages, tool details and files",
    );
    expect(shareIncludes({ include_system: true, include_tools: true })).toBe("With system messages and tool details");
  });

  it("reads a file tool's arguments as rows, the file by the name its result gives", () => {
    expect(fileToolArgs({ file: "f_abc", pages: "3-5" }, { file: { id: "f_abc", name: "report.pdf" } })).toEqual([
      { name: "File", value: "report.pdf", multiline: false },
      { name: "Pages", value: "3-5", multiline: false },
    ]);
    expect(fileToolArgs({ file: "report.pdf", query: "net revenue" }, undefined)).toEqual([
      { name: "File", value: "report.pdf", multiline: false },
      { name: "Query", value: "net revenue", multiline: false },
    ]);
  });
});

it("carries Settings → Models' Reads images in and out of a provider's models", () => {
  const draft = toDraft({ id: "vision", context_window: 32_000, image_input: true });
  expect(draft.readsImages).toBe(true);
  const plain = toDraft({ id: "text", context_window: 32_000 });
  expect(plain.readsImages).toBe(false);
  const read = readDrafts([draft, { ...plain, readsImages: false }]);
  expect(read.ok && read.models.map((m) => m.image_input)).toEqual([true, undefined]);
});
