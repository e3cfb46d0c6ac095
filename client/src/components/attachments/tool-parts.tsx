// A file tool's card (components/tool-card/), its own parts: the arguments as rows ("File: report.pdf",
// "Pages: 3-5", lib/readable-args.ts) and, for note_to_file, the file it made as a chip to open or
// download. Loaded with the first such card.
import { AttachmentSchema } from "../../../../protocol";
import { fileToolArgs } from "../../lib/readable-args";
import { FileChip } from "./file-chip";
import style from "./tool-parts.module.css";

/** A file tool's arguments as rows, and the file its result carries (note_to_file). */
export function FileToolParts({ tool, args, result }: { tool: string; args: unknown; result: unknown }) {
  const rows = fileToolArgs(args, result);
  const made = AttachmentSchema.safeParse((result as { file?: unknown } | undefined)?.file);
  return (
    <>
      {rows.length > 0 && (
        <dl class={style.args} data-testid="tool-args">
          {rows.map((row) => (
            <div class={style.arg} key={row.name}>
              <dt>{row.name}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {tool === "note_to_file" && made.success && (
        <div class={style.file}>
          <FileChip file={made.data} />
        </div>
      )}
    </>
  );
}
