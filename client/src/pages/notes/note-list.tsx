// /notes: every note, a filter by path, and "+ New note", which opens the form to create one.
import { useState } from "preact/hooks";
import { PageIntro, pageStyle as page } from "../../components/page-frame";
import { navigate } from "../../lib/router";
import { type NoteSummary, notePagePath } from "../../lib/use-notes";
import { Link } from "../../ui/link";
import { NewNote } from "./new-note";
import { NoteMeta } from "./note-meta";
import style from "./style.module.css";
import type { Notes, OnStatus } from "./types";

export function NoteList({ notes, onStatus }: { notes: Notes; onStatus: OnStatus }) {
  const [filter, setFilter] = useState("");
  const [creating, setCreating] = useState(false);
  const { list } = notes;
  const needle = filter.trim().toLowerCase();
  const shown: NoteSummary[] =
    list.status === "ready" ? list.notes.filter((n) => n.path.toLowerCase().includes(needle)) : [];

  return (
    <section aria-label="All notes">
      <PageIntro>
        Your notes, in Markdown. The agent can read and write them too (mention one as <code>@path</code> in a message).
      </PageIntro>
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
          class={page.primary}
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
        <p class={page.muted} role="status">
          Loading your notes…
        </p>
      )}
      {list.status === "failed" && (
        <p class={page.statusError} role="alert" data-testid="notes-error">
          {list.message}{" "}
          <button type="button" onClick={() => void notes.reload()}>
            Try again
          </button>
        </p>
      )}
      {list.status === "ready" && list.notes.length === 0 && (
        <p class={page.empty} data-testid="notes-empty">
          No notes yet. Create one with “New note”, or ask the agent to write something down for you.
        </p>
      )}
      {list.status === "ready" && list.notes.length > 0 && shown.length === 0 && (
        <p class={page.muted} data-testid="notes-no-match">
          No note’s path contains “{filter.trim()}”.
        </p>
      )}
      {shown.length > 0 && (
        <ul class={page.list} data-testid="notes-list">
          {shown.map((note) => (
            <li key={note.path} class={style.item} data-testid="note-item" data-path={note.path}>
              <Link href={notePagePath(note.path)} class={style.itemPath}>
                {note.path}
              </Link>
              <NoteMeta note={note} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
