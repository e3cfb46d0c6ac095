// Real PDFs for the tests, made with pdf-lib (a devDependency): each page's lines drawn as text, so a
// PDF reader finds them as a user's document would hold them.
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF whose page i holds the lines of pages[i]. */
export async function makePdf(pages: readonly (readonly string[])[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 790 - i * 16, size: 11, font });
    });
  }
  return doc.save();
}

/** A 1×1 PNG: the smallest real image. */
export const TINY_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
