// Byte strings joined end to end: a request body read in chunks, web push's records, test fixtures.

/** One array holding `parts` one after another (an array: a body may come in more chunks than a call takes arguments). */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const concatBytes = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => joinBytes(parts);
