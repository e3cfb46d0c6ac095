// The user's notes (/notes, /notes/<path>): the same vault the agent reads and writes with its vault_*
// tools, over the REST routes (lib/use-notes.ts). /notes lists them (filter by path) and creates one
// (note-list, new-note); /notes/<path> shows one as Markdown (note-view), edits it with a preview
// (note-editor, text-editor) and deletes it after a confirm step (delete-confirm).
import { useState } from "preact/hooks";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import { useNotes } from "../../lib/use-notes";
import { NoteList } from "./note-list";
import { NoteView } from "./note-view";
import type { Status } from "./types";

const TO_LIST = { href: "/notes", label: "All notes", testid: "notes-back" };

export function NotesPage({ path }: { path?: string }) {
  const notes = useNotes();
  const [status, setStatus] = useState<Status | null>(null);
  return (
    <PageFrame title="Notes" back={path === undefined ? undefined : TO_LIST} testid="notes-page" data-path={path}>
      {status && (
        <p
          class={status.error ? page.statusError : page.status}
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
    </PageFrame>
  );
}
