// One section of the Library (Knowledge or Workflows): its title and New button, what it is for, the
// status line (with Undo after a delete), the editor for a new entry, and the entries, each with Edit
// and Delete (or, while edited, its editor).
import type { EntryInput, LibraryEntrySummary } from "../../../../protocol/library";
import { pageStyle as page } from "../../components/page-frame";
import type { ApiResult } from "../../lib/api";
import type { LibraryKind, LibraryListState } from "../../lib/use-library";
import { Editor } from "./editor";
import { SECTIONS, type Status } from "./sections";
import style from "./style.module.css";

type SectionProps = {
  kind: LibraryKind;
  list: LibraryListState;
  /** undefined: no editor here; null: a new entry; a slug: that entry. */
  editing: string | null | undefined;
  status: Status | null;
  onNew: () => void;
  onEdit: (slug: string) => void;
  onCancel: () => void;
  onSave: (slug: string, input: EntryInput) => Promise<ApiResult<unknown>>;
  onDelete: (entry: LibraryEntrySummary) => void;
  onUndo: (undo: NonNullable<Status["undo"]>) => void;
};

export function Section({
  kind,
  list,
  editing,
  status,
  onNew,
  onEdit,
  onCancel,
  onSave,
  onDelete,
  onUndo,
}: SectionProps) {
  const spec = SECTIONS[kind];
  const entries = list.status === "ready" ? list.entries : [];
  const taken = (slug: string) => entries.some((e) => e.slug === slug);
  const editor = (entry?: LibraryEntrySummary) => (
    <Editor kind={kind} entry={entry} taken={taken} onSave={onSave} onCancel={onCancel} />
  );

  return (
    <section class={style.section} data-testid={`library-${kind}`} aria-labelledby={`library-${kind}-title`}>
      <div class={style.sectionHead}>
        <h2 id={`library-${kind}-title`} class={style.sectionTitle}>
          {spec.title}
        </h2>
        <button
          type="button"
          class={style.new}
          onClick={onNew}
          disabled={editing === null || list.status !== "ready"}
          data-testid={`library-new-${kind}`}
        >
          + New {spec.noun}
        </button>
      </div>
      <p class={style.intro}>{spec.intro}</p>
      {status && <StatusLine status={status} onUndo={onUndo} />}
      {editing === null && editor()}
      {list.status === "loading" && <p class={page.muted}>Loading…</p>}
      {list.status === "failed" && (
        <p class={page.statusError} role="alert">
          Could not load the {spec.title.toLowerCase()}: {list.message}
        </p>
      )}
      {list.status === "ready" && entries.length === 0 && editing !== null && (
        <p class={page.muted}>Nothing here yet.</p>
      )}
      <ul class={style.list}>
        {entries.map((entry) => (
          <li key={entry.slug} class={style.entry} data-testid={`library-entry-${entry.slug}`}>
            {editing === entry.slug ? (
              editor(entry)
            ) : (
              <EntryRow kind={kind} entry={entry} onEdit={onEdit} onDelete={onDelete} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

type EntryProps = {
  kind: LibraryKind;
  entry: LibraryEntrySummary;
  onEdit: (slug: string) => void;
  onDelete: (entry: LibraryEntrySummary) => void;
};

function EntryRow({ kind, entry, onEdit, onDelete }: EntryProps) {
  const spec = SECTIONS[kind];
  return (
    <>
      <div class={style.entryHead}>
        <code class={style.slug}>
          {spec.sigil}
          {entry.slug}
        </code>
        <span class={style.entryTitle}>{entry.title}</span>
        <span class={style.spacer} />
        <button type="button" onClick={() => onEdit(entry.slug)} data-testid={`library-edit-${entry.slug}`}>
          Edit
        </button>
        <button
          type="button"
          class={page.danger}
          onClick={() => onDelete(entry)}
          aria-label={`Delete ${spec.sigil}${entry.slug}`}
          data-testid={`library-delete-${entry.slug}`}
        >
          Delete
        </button>
      </div>
      <p class={style.preview}>{entry.body}</p>
    </>
  );
}

function StatusLine({ status, onUndo }: { status: Status; onUndo: (undo: NonNullable<Status["undo"]>) => void }) {
  return (
    <p
      class={status.error ? page.statusError : page.status}
      role={status.error ? "alert" : "status"}
      data-testid="library-status"
    >
      {status.text}
      {status.undo && (
        <button
          type="button"
          class={page.undo}
          onClick={() => status.undo && onUndo(status.undo)}
          data-testid="library-undo"
        >
          Undo
        </button>
      )}
    </p>
  );
}
