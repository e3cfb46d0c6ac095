// How a file's bytes are served (docs/protocol.md "Files"), to its owner and through a share link alike:
// only a raster image is shown inline; text of any kind (an HTML page, an SVG) is plain text, and a
// sandboxing CSP and nosniff hold for everything, so nothing uploaded runs in the app's origin.
import type { FileRow } from "../../d1/files";

const SANDBOX = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/** RFC 6266/5987: an ASCII fallback and the UTF-8 name. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileResponse(row: FileRow, object: R2ObjectBody, download: boolean): Response {
  const image = row.kind === "image";
  const type = image ? row.content_type : row.kind === "pdf" ? "application/pdf" : "text/plain; charset=utf-8";
  return new Response(object.body, {
    headers: {
      "Content-Type": type,
      "Content-Length": String(object.size),
      "Content-Disposition": disposition(image && !download ? "inline" : "attachment", row.name),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": SANDBOX,
      "Cache-Control": "private, max-age=31536000, immutable",
      "Cross-Origin-Resource-Policy": "same-origin",
    },
  });
}
