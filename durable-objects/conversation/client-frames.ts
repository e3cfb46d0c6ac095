// Parses one client frame: size, JSON and schema, or an `error` frame that says what was wrong.
import { type ClientFrame, ClientFrameSchema, MAX_FRAME_BYTES } from "../../protocol";

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; code: string; message: string };

export function parseClientFrame(data: string | ArrayBuffer): ParsedFrame {
  const size = typeof data === "string" ? new TextEncoder().encode(data).byteLength : data.byteLength;
  if (size > MAX_FRAME_BYTES)
    return { ok: false, code: "too_large", message: `Frames are limited to ${MAX_FRAME_BYTES} bytes` };
  if (typeof data !== "string") return { ok: false, code: "invalid_frame", message: "Frames must be JSON text" };
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return { ok: false, code: "invalid_frame", message: "Frame is not valid JSON" };
  }
  const parsed = ClientFrameSchema.safeParse(raw);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, code: "invalid_frame", message: `${where}${issue?.message ?? "invalid frame"}` };
}
