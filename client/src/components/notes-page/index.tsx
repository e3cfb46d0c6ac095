// The user's notes (/notes, /notes/<path>): the same vault the agent reads and writes with its vault_*
// tools, over the REST routes (lib/use-notes.ts). /notes lists them (filter by path) and creates one;
// /notes/<path> shows one as Markdown, edits it (with a preview) and deletes it after a confirm step.
import { useEffect, useRef, useState } from "preact/hooks";
import { navigate } from "../../lib/router";
import { explain, type NoteSummary, notePagePath, useNote, useNotes } from "../../lib/use-notes";
import { Link } from "../link";
import { Markdown } from "../markdown";
import style from "./style.module.css";

type Status = { text: string; error?: boolean };
type Notes = ReturnType<typeof useNotes>;

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
};

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toLocaleString(undefined, { maximumFractionDigits: 1 })} KB`;

export function NotesPage({ path }: { path?: string }) {
  const notes = useNotes();
  const [status, setStatus] = useState<Status | null>(null);
  return (
    <section class={style.page} data-testid="notes-page" data-path={path}>
      <div class={style.inner}>
        <div class={style.top}>
          {path === undefined ? (
            <Link href="/" class={style.back}>
              ← Back to chat
            </Link>
          ) : (
            <Link href="/notes" class={style.back} data-testid="notes-back">
              ← All notes
            </Link>
          )}
          <h1 class={style.title}>Notes</h1>
        </div>
        {status && (
          <p
            class={status.error ? style.statusError : style.status}
            role={status.error ? "alert" : "status"}
            data-testid="notes-status"
          >
            {status.text}
          </p>
        )}
        {path === undefined ? (
          <NoteList notes={notes} onStatus={setStatus} />
        ) : (
          <NoteView key={path} path={path} notes={notes} onStatus={setStatus} />
        )}
      </div>
    </section>
  );
}

function NoteList({ notes, onStatus }: { notes: Notes; onStatus: (status: Status | null) => void }) {
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const { list } = notes;
  const needle = filter.trim().toLowerCase();
  const shown: NoteSummary[] =
    list.status === "ready" ? list.notes.filter((n) => n.path.toLowerCase().includes(needle)) : [];

  return (
    <section aria-label="All notes">
      <p class={style.intro}>
        Your notes, in Markdown. The agent can read and write them too (mention one as <code>@path</code> in a message).
      </p>
      <div class={style.toolbar}>
        <input
          type="search"
          class={style.filter}
          value={filter}
          placeholder="Filter by path…"
          aria-label="Filter notes by path"
          onInput={(event) => setFilter(event.currentTarget.value)}
          data-testid="notes-filter"
        />
        <button
          type="button"
          class={style.primary}
          onClick={() => {
            setCreating(true);
            onStatus(null);
          }}
          disabled={creating}
          data-testid="notes-new"
        >
          + New note
        </button>
      </div>
      {creating && (
        <NewNote
          create={notes.create}
          onCancel={() => setCreating(false)}
          onCreated={(path) => {
            onStatus({ text: `✓ Created ${path}` });
            navigate(notePagePath(path));
          }}
        />
      )}
      {list.status === "loading" && (
        <p class={style.muted} role="status">
          Loading your notes…
        </p>
      )}
      {list.status === "failed" && (
        <p class={style.statusError} role="alert" data-testid="notes-error">
          {list.message}{" "}
          <button type="button" onClick={() => void notes.reload()}>
            Try again
          </button>
        </p>
      )}
      {list.status === "ready" && list.notes.length === 0 && (
        <p class={style.empty} data-testid="notes-empty">
          No notes yet. Create one with “New note”, or ask the agent to write something down for you.
        </p>
      )}
      {list.status === "ready" && list.notes.length > 0 && shown.length === 0 && (
        <p class={style.muted} data-testid="notes-no-match">
          No note’s path contains “{filter.trim()}”.
        </p>
      )}
      {shown.length > 0 && (
        <ul class={style.list} data-testid="notes-list">
          {shown.map((note) => (
            <li key={note.path} class={style.item} data-testid="note-item" data-path={note.path}>
              <Link href={notePagePath(note.path)} class={style.itemPath}>
                {note.path}
              </Link>
              <span class={style.itemMeta}>
                <time dateTime={note.updated_at}>{when(note.updated_at)}</time> · {size(note.bytes)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NewNote(props: { create: Notes["create"]; onCancel: () => void; onCreated: (path: string) => void }) {
  const [path, setPath] = useState("");
  const [content, setContent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const pathInput = useRef<HTMLInputElement>(null);
  useEffect(() => pathInput.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    if (path.trim() === "") {
      setError("Give the note a path, like ideas.md or projects/plan.md.");
      pathInput.current?.focus();
      return;
    }
    setSaving(true);
    const result = await props.create(path, content);
    setSaving(false);
    if (result.ok) return props.onCreated(result.data.path);
    setError(explain(result.error, "create the note"));
    pathInput.current?.focus();
  };

  return (
    <form class={style.editor} onSubmit={(event) => void submit(event)} data-testid="note-new-form">
      <label class={style.field} for="note-new-path">
        <span class={style.label}>Path</span>
        <input
          id="note-new-path"
          ref={pathInput}
          value={path}
          autoComplete="off"
          spellcheck={false}
          placeholder="projects/plan.md"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "note-new-error" : "note-new-hint"}
          onInput={(event) => {
            setPath(event.currentTarget.value);
            setError(null);
          }}
          data-testid="note-path-input"
        />
        <span id="note-new-hint" class={style.hint}>
          Letters, digits, spaces and _ . / - ; a / makes folders.
        </span>
      </label>
      <TextEditor id="note-new-content" value={content} onInput={setContent} onSubmit={submit} />
      {error && (
        <p id="note-new-error" class={style.statusError} role="alert" data-testid="note-error">
          {error}
        </p>
      )}
      <div class={style.actions}>
        <button type="button" onClick={props.onCancel} data-testid="note-cancel">
          Cancel
        </button>
        <button type="submit" class={style.primary} disabled={saving} data-testid="note-save">
          {saving ? "Creating…" : "Create note"}
        </button>
      </div>
    </form>
  );
}

/** A textarea with an Edit / Preview switch; the preview is the note as Markdown. */
function TextEditor(props: {
  id: string;
  value: string;
  onInput: (value: string) => void;
  onSubmit: (event: Event) => void;
  autoFocus?: boolean;
}) {
  const [preview, setPreview] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const focusArea = useRef(props.autoFocus ?? false);
  useEffect(() => {
    if (!preview && focusArea.current) area.current?.focus();
    focusArea.current = false;
  }, [preview]);

  return (
    <div class={style.field}>
      <div class={style.editorHead}>
        <label class={style.label} for={props.id}>
          Text (Markdown)
        </label>
        <fieldset class={style.modes}>
          <legend class={style.visuallyHidden}>Editor mode</legend>
          <button
            type="button"
            aria-pressed={!preview}
            class={!preview ? style.modeOn : undefined}
            onClick={() => {
              focusArea.current = true;
              setPreview(false);
            }}
            data-testid="note-mode-edit"
          >
            Edit
          </button>
          <button
            type="button"
            aria-pressed={preview}
            class={preview ? style.modeOn : undefined}
            onClick={() => setPreview(true)}
            data-testid="note-mode-preview"
          >
            Preview
          </button>
        </fieldset>
      </div>
      {preview ? (
        <div class={style.preview} data-testid="note-preview">
          {props.value.trim() ? <Markdown text={props.value} /> : <p class={style.muted}>Nothing to preview yet.</p>}
        </div>
      ) : (
        <textarea
          id={props.id}
          ref={area}
          class={style.textarea}
          rows={14}
          value={props.value}
          placeholder={"# A title\n\nWrite in Markdown…"}
          onInput={(event) => props.onInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) props.onSubmit(event);
          }}
          data-testid="note-textarea"
        />
      )}
    </div>
  );
}

type Mode = "view" | "edit" | "confirm-delete";

function NoteView({ path, notes, onStatus }: { path: string; notes: Notes; onStatus: (s: Status | null) => void }) {
  const { state, replace } = useNote(path);
  const [mode, setMode] = useState<Mode>("view");
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (mode === "confirm-delete") keepButton.current?.focus();
    if (mode === "view" && returnFocus.current) editButton.current?.focus();
    returnFocus.current = false;
  }, [mode]);

  if (state.status === "loading")
    return (
      <p class={style.muted} role="status">
        Loading {path}…
      </p>
    );
  if (state.status === "missing")
    return (
      <p class={style.empty} data-testid="note-missing">
        There is no note at <code>{path}</code>. It may have been deleted or renamed.{" "}
        <Link href="/notes">See all notes</Link>
      </p>
    );
  if (state.status === "failed")
    return (
      <p class={style.statusError} role="alert" data-testid="notes-error">
        {state.message}
      </p>
    );

  const { note } = state;
  const backToView = () => {
    returnFocus.current = true;
    setError(null);
    setMode("view");
  };

  const save = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await notes.save(note.path, draft);
    setBusy(false);
    if (!result.ok) return setError(explain(result.error, "save the note"));
    replace(result.data);
    onStatus({ text: `✓ Saved ${note.path}` });
    backToView();
  };

  const confirmDelete = async () => {
    if (busy) return;
    setBusy(true);
    const result = await notes.remove(note.path);
    setBusy(false);
    if (!result.ok && result.error.status !== 404) return setError(explain(result.error, "delete the note"));
    onStatus({ text: `Deleted ${note.path}` });
    navigate("/notes");
  };

  return (
    <article class={style.note} data-testid="note-view" data-path={note.path} aria-labelledby="note-title">
      <div class={style.noteHead}>
        <h2 id="note-title" class={style.notePath} data-testid="note-title">
          {note.path}
        </h2>
        <span class={style.itemMeta}>
          Updated <time dateTime={note.updated_at}>{when(note.updated_at)}</time> · {size(note.bytes)}
        </span>
      </div>
      {mode === "edit" ? (
        <form class={style.editor} onSubmit={(event) => void save(event)} data-testid="note-edit-form">
          <TextEditor id="note-edit-content" value={draft} onInput={setDraft} onSubmit={save} autoFocus />
          {error && (
            <p class={style.statusError} role="alert" data-testid="note-error">
              {error}
            </p>
          )}
          <div class={style.actions}>
            <button type="button" onClick={backToView} data-testid="note-cancel">
              Cancel
            </button>
            <button type="submit" class={style.primary} disabled={busy} data-testid="note-save">
              {busy ? "Saving…" : "Save"}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div class={style.actions}>
            <button
              type="button"
              ref={editButton}
              onClick={() => {
                setDraft(note.content);
                setError(null);
                onStatus(null);
                setMode("edit");
              }}
              disabled={mode !== "view"}
              data-testid="note-edit"
            >
              Edit
            </button>
            <button
              type="button"
              class={style.danger}
              onClick={() => {
                setError(null);
                onStatus(null);
                setMode("confirm-delete");
              }}
              disabled={mode !== "view"}
              data-testid="note-delete"
            >
              Delete
            </button>
          </div>
          {mode === "confirm-delete" && (
            <section class={style.confirm} aria-labelledby="note-confirm-text" data-testid="note-confirm">
              <p id="note-confirm-text" class={style.confirmText}>
                Delete <strong>{note.path}</strong>? This cannot be undone.
              </p>
              {error && (
                <p class={style.statusError} role="alert" data-testid="note-error">
                  {error}
                </p>
              )}
              <div class={style.actions}>
                <button type="button" ref={keepButton} onClick={backToView} data-testid="note-keep">
                  Keep it
                </button>
                <button
                  type="button"
                  class={style.dangerStrong}
                  disabled={busy}
                  onClick={() => void confirmDelete()}
                  data-testid="note-confirm-delete"
                >
                  {busy ? "Deleting…" : "Delete note"}
                </button>
              </div>
            </section>
          )}
          <div class={style.body} data-testid="note-body">
            {note.content.trim() ? <Markdown text={note.content} /> : <p class={style.muted}>This note is empty.</p>}
          </div>
        </>
      )}
    </article>
  );
}
