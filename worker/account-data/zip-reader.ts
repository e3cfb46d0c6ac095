// Reading a zip one file at a time: the list of its files from the central directory at its end, and
// a file's bytes unpacked only when asked for. An import reads an archive twice (first every file is
// checked, then it is written) and must never hold all of it unpacked: a 50 MiB zip of text can unpack
// to ten times that, and a Worker has 128 MB. fflate's unzipSync unpacks everything at once, so the
// directory is read here (a few fixed offsets, APPNOTE.TXT 4.3) and fflate only inflates. Pure.
import { inflateSync } from "fflate";
import { MAX_IMPORT_BYTES } from "../../protocol";

/** No file read from a zip may unpack to more than an import takes as it is (a conversations.json, a note). */
export const MAX_UNPACKED_FILE = MAX_IMPORT_BYTES;

export interface ZipEntry {
  name: string;
  /** Unpacked size, as the directory says. */
  size: number;
  read(): Uint8Array;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ZIP64 = 0xffffffff;

/** A zip's local header signature, as the first bytes of a body: how an import tells a zip from JSON. */
export const isZip = (bytes: Uint8Array) => bytes.length >= 4 && u32(bytes, 0) === LOCAL_HEADER;

export class ZipProblem extends Error {}

/**
 * The files of the zip (folders left out), in the directory's order, nothing unpacked yet; throws a
 * ZipProblem in words. A file is unpacked by its `read`, which refuses one larger than MAX_UNPACKED_FILE.
 */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const end = findEnd(bytes);
  const count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== DIRECTORY_ENTRY) throw new ZipProblem("its file list is damaged");
    const method = u16(bytes, at + 10);
    const packed = u32(bytes, at + 20);
    const size = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const skip = nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    const local = u32(bytes, at + 42);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    if (name.endsWith("/")) continue;
    entries.push({ name, size, read: () => unpack(bytes, local, method, packed, size, name) });
  }
  return entries;
}

function unpack(bytes: Uint8Array, local: number, method: number, packed: number, size: number, name: string) {
  // Zip64's sizes (past 4 GiB) are never needed for a file an import reads.
  if (size === ZIP64 || packed === ZIP64 || local === ZIP64 || size > MAX_UNPACKED_FILE)
    throw new ZipProblem(`${name} unpacks to more than ${mib(MAX_UNPACKED_FILE)}`);
  if (method !== STORED && method !== DEFLATED)
    throw new ZipProblem(`${name} is packed in a way this reader does not know`);
  if (local + 30 > bytes.length || u32(bytes, local) !== LOCAL_HEADER) throw new ZipProblem(`${name} is damaged`);
  const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
  const data = bytes.subarray(start, start + packed);
  if (data.length !== packed) throw new ZipProblem(`${name} is cut short`);
  if (method === STORED) return data;
  try {
    // Into a buffer of the size the directory gives: a file that says it is small cannot grow in memory.
    return inflateSync(data, { out: new Uint8Array(size) });
  } catch {
    throw new ZipProblem(`${name} is damaged`);
  }
}

/** The end-of-directory record: the last 22 bytes, or earlier when the zip carries a comment. */
function findEnd(bytes: Uint8Array): number {
  const last = bytes.length - 22;
  for (let at = last; at >= Math.max(0, last - 0xffff); at--) if (u32(bytes, at) === END_OF_DIRECTORY) return at;
  throw new ZipProblem("it is not a zip file, or it is cut short");
}

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
