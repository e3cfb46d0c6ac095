// The export's zip, written as it is made: each file is packed (fflate's streaming Zip, deflated) and
// its bytes go out on the response at once, so the archive never sits whole in the Worker's memory,
// and the browser sees each file begin as it is written (its progress, docs/protocol.md "Export and
// import"). Writing waits for the reader between files, so a slow download slows the export rather
// than piling up in memory.
import { Zip, ZipDeflate } from "fflate";
import { EXPORT_ROOT } from "../../protocol";

const encoder = new TextEncoder();

export class ArchiveWriter {
  private readonly zip: Zip;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private pending: Promise<void>[] = [];
  private failed: Error | undefined;

  constructor(writable: WritableStream<Uint8Array>) {
    this.writer = writable.getWriter();
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failed = error;
        return;
      }
      this.pending.push(this.writer.write(chunk));
      if (final) this.pending.push(this.writer.close());
    });
  }

  /** A text file at `name` under the archive's root folder. */
  text(name: string, text: string): Promise<void> {
    return this.bytes(
      name,
      (async function* () {
        yield encoder.encode(text);
      })(),
    );
  }

  /** A file at `name` whose bytes arrive in chunks (a stored file read from R2), packed as they come. */
  async bytes(name: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
    const file = new ZipDeflate(`${EXPORT_ROOT}/${name}`, { level: 6 });
    this.zip.add(file);
    for await (const chunk of chunks) {
      file.push(chunk, false);
      await this.drain();
    }
    file.push(new Uint8Array(), true);
    await this.drain();
  }

  json(name: string, value: unknown): Promise<void> {
    return this.text(name, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** The zip's directory, and the end of the response. */
  async end(): Promise<void> {
    this.zip.end();
    await this.drain();
  }

  /** Ends the response as failed: the browser sees the download break off, never a zip that looks whole. */
  async abort(reason: unknown): Promise<void> {
    this.zip.terminate();
    await this.writer.abort(reason).catch(() => {});
  }

  private async drain(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
    if (this.failed) throw this.failed;
  }
}
