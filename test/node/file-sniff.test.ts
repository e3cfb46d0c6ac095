// What an upload is, from its bytes (core/file-sniff.ts): the name and the client's type never decide.
import { describe, expect, it } from "vitest";
import { sniffFile } from "../../core/file-sniff";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

const PNG_1x2 = bytes(
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0, 0, 0, 13],
  "IHDR",
  [0, 0, 0, 1, 0, 0, 0, 2],
);

describe("sniffFile", () => {
  it("knows the four image signatures and reads a PNG's and a GIF's size", () => {
    expect(sniffFile(PNG_1x2, "x.txt")).toEqual({ kind: "image", content_type: "image/png", width: 1, height: 2 });
    expect(sniffFile(bytes("GIF89a", [3, 0, 4, 0]), "a.gif")).toEqual({
      kind: "image",
      content_type: "image/gif",
      width: 3,
      height: 4,
    });
    expect(sniffFile(bytes([0xff, 0xd8, 0xff, 0xe0]), "a.jpg")).toMatchObject({ content_type: "image/jpeg" });
    expect(sniffFile(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "), "a.webp")).toMatchObject({ content_type: "image/webp" });
  });

  it("reads a JPEG's size from its start-of-frame segment", () => {
    // SOI, an APP0 of 4 bytes, then SOF0: length 11, precision 8, height 480, width 640.
    const jpeg = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 1, 0xe0, 2, 0x80, 3, 0, 0, 0]);
    expect(sniffFile(jpeg, "a.jpg")).toEqual({ kind: "image", content_type: "image/jpeg", width: 640, height: 480 });
  });

  it("finds a PDF by its header, even after a few bytes", () => {
    expect(sniffFile(bytes("%PDF-1.7\n"), "report.txt")).toEqual({ kind: "pdf", content_type: "application/pdf" });
    expect(sniffFile(bytes("\n\n%PDF-1.4"), "r.pdf")).toMatchObject({ kind: "pdf" });
  });

  it("takes UTF-8 text whatever its name, labelled by its extension", () => {
    expect(sniffFile(bytes("# Title\n"), "a.md")).toEqual({ kind: "text", content_type: "text/markdown" });
    expect(sniffFile(new TextEncoder().encode("naïve ☕"), "a.csv")).toEqual({
      kind: "text",
      content_type: "text/csv",
    });
    // HTML named as a picture is text, and an unknown extension is plain text.
    expect(sniffFile(bytes("<html><script>x()</script>"), "photo.png")).toEqual({
      kind: "text",
      content_type: "text/plain",
    });
    expect(sniffFile(bytes("<svg/>"), "a.svg")).toEqual({ kind: "text", content_type: "image/svg+xml" });
  });

  it("refuses binary that is none of these, and bytes that are not UTF-8", () => {
    const zip = sniffFile(bytes("PK", [3, 4, 0, 0]), "notes.docx");
    expect(zip).toEqual({ refused: expect.stringContaining("notes.docx is not a file that can be attached") });
    expect(sniffFile(bytes([0xc3, 0x28]), "latin.txt")).toHaveProperty("refused");
  });
});
