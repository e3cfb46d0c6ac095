// A note's last change and size, as the list and the note's own page show them.
import type { NoteSummary } from "../../lib/use-notes";
import style from "./style.module.css";

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
};

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} KB`;

export function NoteMeta({ note, prefix }: { note: NoteSummary; prefix?: string }) {
  return (
    <span class={style.itemMeta}>
      {prefix && `${prefix} `}
      <time dateTime={note.updated_at}>{when(note.updated_at)}</time> · {size(note.bytes)}
    </span>
  );
}
