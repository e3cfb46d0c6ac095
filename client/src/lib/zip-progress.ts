// How far an account export's download has got, read from the zip's own bytes as they arrive: each file
// of a zip begins with a local header (signature PK\3\4, its name 30 bytes in), and the Worker writes the
// conversations last, one after another (docs/protocol.md "Export and import"). Counting the headers of
// `oracle-export/conversations/*.json` as they stream past gives "12 of 40 conversations" against the
// total the response's header gave, without unpacking anything. A header split between two chunks is
// kept until its name is whole. Packed bytes that happen to hold the signature would also need a
// conversation's name after it, so nothing else is counted. Pure.

const SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const HEADER = 30;
const decoder = new TextDecoder();

export class ZipFileCounter {
  /** How many files whose names `counts` accepts have begun so far. */
  count = 0;
  /** The end of the bytes not yet looked at for a header: a header may begin in them. */
  private tail = new Uint8Array(0);

  constructor(private readonly counts: (name: string) => boolean) {}

  push(chunk: Uint8Array): void {
    const bytes = joined(this.tail, chunk);
    let keepFrom = Math.max(0, bytes.length - (HEADER - 1));
    for (let at = 0; at + HEADER <= bytes.length; at++) {
      if (!SIGNATURE.every((byte, i) => bytes[at + i] === byte)) continue;
      const nameEnd = at + HEADER + ((bytes[at + 26] ?? 0) | ((bytes[at + 27] ?? 0) << 8));
      if (nameEnd > bytes.length) {
        keepFrom = at;
        break;
      }
      if (this.counts(decoder.decode(bytes.subarray(at + HEADER, nameEnd)))) this.count++;
      at = nameEnd - 1;
      keepFrom = Math.max(keepFrom, nameEnd);
    }
    this.tail = bytes.slice(Math.min(keepFrom, bytes.length));
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
