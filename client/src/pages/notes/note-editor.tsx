// Editing a note: its text, from what is saved, until Save (or Ctrl/Cmd+Enter) or Cancel.
import { useState } from "preact/hooks";
import { pageStyle as page } from "../../components/page-frame";
import { explain, type Note } from "../../lib/use-notes";
import style from "./style.module.css";
import { TextEditor } from "./text-editor";
import type { Notes } from "./types";

type Props = { note: Note; save: Notes["save"]; onSaved: (note: Note) => void; onCancel: () => void };

export function NoteEditor({ note, save, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(note.content);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await save(note.path, draft);
    setBusy(false);
    if (!result.ok) return setError(explain(result.error, "save the note"));
    onSaved(result.data);
  };

  return (
    <form class={page.editor} onSubmit={(event) => void submit(event)} data-testid="note-edit-form">
      <TextEditor id="note-edit-content" value={draft} onInput={setDraft} onSubmit={submit} autoFocus />
      {error && (
        <p class={page.statusError} role="alert" data-testid="note-error">
          {error}
        </p>
      )}
      <div class={style.actions}>
        <button type="button" onClick={onCancel} data-testid="note-cancel">
          Cancel
        </button>
        <button type="submit" class={page.primary} disabled={busy} data-testid="note-save">
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
