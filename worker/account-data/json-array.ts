// The elements of a JSON array, one at a time, from its UTF-8 bytes: a ChatGPT `conversations.json` is
// one array of tens of megabytes, and parsed whole it would hold every conversation in memory at once
// (a Worker has 128 MB). The scan only follows strings and brackets, so each element is handed on as
// its own bytes, to be parsed, used and let go before the next. Every byte JSON gives meaning to is
// ASCII, so a multi-byte character can never be mistaken for one. Pure.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The bytes of each element of the array `bytes` holds; throws (in words) when it is not one JSON array. */
export function* jsonArrayElements(bytes: Uint8Array): Generator<Uint8Array> {
  let at = skipSpace(bytes, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  if (bytes[at] !== OPEN_ARRAY) throw new Error("the file is not a JSON array");
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === CLOSE_ARRAY) return end(bytes, at);
  for (;;) {
    const stop = elementEnd(bytes, at);
    yield bytes.subarray(at, stop);
    at = skipSpace(bytes, stop);
    if (bytes[at] === CLOSE_ARRAY) return end(bytes, at);
    if (bytes[at] !== COMMA) throw new Error("the file is not a JSON array (it ends early or a comma is missing)");
    at = skipSpace(bytes, at + 1);
  }
}

function skipSpace(bytes: Uint8Array, from: number): number {
  let at = from;
  while (isSpace(bytes[at])) at++;
  return at;
}

function end(bytes: Uint8Array, close: number): void {
  if (skipSpace(bytes, close + 1) !== bytes.length) throw new Error("the file holds more after its JSON array");
}

/** Where the element starting at `from` ends: past its closing bracket, or at the comma or `]` after a plain value. */
function elementEnd(bytes: Uint8Array, from: number): number {
  let depth = 0;
  let inString = false;
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at];
    if (inString) {
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) inString = false;
      if (!inString && depth === 0) return at + 1;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) depth++;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (depth === 0) return at;
      depth--;
      if (depth === 0) return at + 1;
    } else if (depth === 0 && (byte === COMMA || isSpace(byte))) return at;
  }
  throw new Error("the file ends inside its JSON array");
}
