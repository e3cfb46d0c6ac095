// Parses one client frame: size, JSON, well-formed text and schema, or an `error` frame that says
// what was wrong, naming the field. The schemas refuse unknown fields, as every HTTP body does.
import {
  type ClientFrame,
  ClientFrameSchema,
  fieldErrors,
  firstFieldError,
  illFormedTextField,
  MAX_FRAME_BYTES,
  NOT_UNICODE,
} from "../../../protocol";

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; code: string; message: string };

const invalidFrame = (fields: Record<string, string>): ParsedFrame => ({
  ok: false,
  code: "invalid_frame",
  message: firstFieldError(fields, "frame"),
});

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
  const badText = illFormedTextField(raw);
  if (badText) return invalidFrame({ [badText]: NOT_UNICODE });
  const parsed = ClientFrameSchema.safeParse(raw);
  return parsed.success ? { ok: true, frame: parsed.data } : invalidFrame(fieldErrors(parsed.error));
}
