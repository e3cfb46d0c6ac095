// /notes/<path>: one note as Markdown, with Edit (note-editor) and Delete (delete-confirm).
import { useEffect, useRef, useState } from "preact/hooks";
import { Markdown } from "../../components/markdown";
import { pageStyle as page } from "../../components/page-frame";
import { navigate } from "../../lib/router";
import { useNote } from "../../lib/use-notes";
import { Link } from "../../ui/link";
import { DeleteConfirm } from "./delete-confirm";
import { NoteEditor } from "./note-editor";
import { NoteMeta } from "./note-meta";
import style from "./style.module.css";
import type { Notes, OnStatus } from "./types";

type Mode = "view" | "edit" | "confirm-delete";

export function NoteView({ path, notes, onStatus }: { path: string; notes: Notes; onStatus: OnStatus }) {
  const { state, replace } = useNote(path);
  const [mode, setMode] = useState<Mode>("view");
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (mode === "view" && returnFocus.current) editButton.current?.focus();
    returnFocus.current = false;
  }, [mode]);

  if (state.status === "loading")
    return (
      <p class={page.muted} role="status">
        Loading {path}…
      </p>
    );
  if (state.status === "missing")
    return (
      <p class={page.empty} data-testid="note-missing">
        There is no note at <code>{path}</code>. It may have been deleted or renamed.{" "}
        <Link href="/notes">See all notes</Link>
      </p>
    );
  if (state.status === "failed")
    return (
      <p class={page.statusError} role="alert" data-testid="notes-error">
        {state.message}
      </p>
    );

  const { note } = state;
  const backToView = () => {
    returnFocus.current = true;
    setMode("view");
  };
  const start = (next: Mode) => {
    onStatus(null);
    setMode(next);
  };

  return (
    <article class={style.note} data-testid="note-view" data-path={note.path} aria-labelledby="note-title">
      <div class={style.noteHead}>
        <h2 id="note-title" class={style.notePath} data-testid="note-title">
          {note.path}
        </h2>
        <NoteMeta note={note} prefix="Updated" />
      </div>
      {mode === "edit" ? (
        <NoteEditor
          note={note}
          save={notes.save}
          onCancel={backToView}
          onSaved={(saved) => {
            replace(saved);
            onStatus({ text: `✓ Saved ${note.path}` });
            backToView();
          }}
        />
      ) : (
        <>
          <div class={style.actions}>
            <button
              type="button"
              ref={editButton}
              onClick={() => start("edit")}
              disabled={mode !== "view"}
              data-testid="note-edit"
            >
              Edit
            </button>
            <button
              type="button"
              class={page.danger}
              onClick={() => start("confirm-delete")}
              disabled={mode !== "view"}
              data-testid="note-delete"
            >
              Delete
            </button>
          </div>
          {mode === "confirm-delete" && (
            <DeleteConfirm
              path={note.path}
              remove={notes.remove}
              onKeep={backToView}
              onDeleted={() => {
                onStatus({ text: `Deleted ${note.path}` });
                navigate("/notes");
              }}
            />
          )}
          <div class={style.body} data-testid="note-body">
            {note.content.trim() ? <Markdown text={note.content} /> : <p class={page.muted}>This note is empty.</p>}
          </div>
        </>
      )}
    </article>
  );
}
