// The Notes page's data over /api/notes (worker/routes/notes.ts): the list of notes (path, size, last
// change), one note by path, and create / save / delete. The list is updated from the server's answers,
// so what is shown is what was saved. A plain PUT upserts, so "create" sends If-None-Match: *, which the
// server refuses with 409 when the path is taken: it never overwrites an existing note.
import { useCallback, useEffect, useState } from "preact/hooks";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";
import { type Note, NoteListSchema, NoteSchema, type NoteSummary } from "./response-schemas";

export type { Note, NoteSummary };

export type NoteListState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; notes: NoteSummary[] };

export type NoteState =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "failed"; message: string }
  | { status: "ready"; note: Note };

/** A path's URL under /api/notes/: its slashes stay slashes (the route takes the rest of the URL). */
export const noteApiPath = (path: string) => `/api/notes/${path.split("/").map(encodeURIComponent).join("/")}`;
/** The page of a note: /notes/<path>. */
export const notePagePath = (path: string) => `/notes/${path.split("/").map(encodeURIComponent).join("/")}`;

/** An API failure in words a person can act on. */
export function explain(error: ApiError, doing: string): string {
  if (error.status === 0) return `Could not ${doing}: the server cannot be reached. Check your connection.`;
  if (error.status === 401) return `Could not ${doing}: you are signed out. Sign in again.`;
  const field = error.fields.path ?? error.fields.content;
  if (error.status === 400 && field) return `Could not ${doing}: the ${sentenceStart(field)}.`;
  if (error.status === 413) return `Could not ${doing}: the note is too long.`;
  if (error.status >= 500) return `Could not ${doing}: something went wrong on the server. Try again.`;
  return `Could not ${doing}: ${error.message}`;
}

/** "path must not contain .." reads as "the path must not contain ..". */
const sentenceStart = (message: string) => message.replace(/\.$/, "");

const byPath = (a: NoteSummary, b: NoteSummary) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
const summary = (note: Note): NoteSummary => ({ path: note.path, bytes: note.bytes, updated_at: note.updated_at });

export function useNotes() {
  const [list, setList] = useState<NoteListState>({ status: "loading" });

  const reload = useCallback(async () => {
    const result = await requestJson("/api/notes", NoteListSchema);
    setList(
      result.ok
        ? { status: "ready", notes: [...result.data].sort(byPath) }
        : { status: "failed", message: explain(result.error, "load your notes") },
    );
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const remember = useCallback((note: Note) => {
    setList((current) =>
      current.status === "ready"
        ? { ...current, notes: [...current.notes.filter((n) => n.path !== note.path), summary(note)].sort(byPath) }
        : current,
    );
  }, []);

  const forget = useCallback((path: string) => {
    setList((current) =>
      current.status === "ready" ? { ...current, notes: current.notes.filter((n) => n.path !== path) } : current,
    );
  }, []);

  const save = useCallback(
    async (path: string, content: string): Promise<ApiResult<Note>> => {
      const result = await requestJson(noteApiPath(path), NoteSchema, "PUT", { content });
      if (result.ok) remember(result.data);
      return result;
    },
    [remember],
  );

  /** Creates a note only where none is (If-None-Match: *): a taken path is the server's 409, in plain words. */
  const create = useCallback(
    async (path: string, content: string): Promise<ApiResult<Note>> => {
      const result = await requestJson(noteApiPath(path), NoteSchema, "PUT", { content }, { "If-None-Match": "*" });
      if (result.ok) remember(result.data);
      else if (result.error.status === 409)
        return {
          ok: false,
          error: { ...result.error, message: `a note at ${path} already exists. Open it to edit it instead` },
        };
      return result;
    },
    [remember],
  );

  const remove = useCallback(
    async (path: string): Promise<ApiResult<null>> => {
      const result = await requestEmpty(noteApiPath(path), "DELETE");
      // Already gone (another tab, the agent) is as good as deleted.
      if (result.ok || result.error.status === 404) forget(path);
      return result;
    },
    [forget],
  );

  return { list, reload, save, create, remove };
}

/** One note by path; `replace` shows a saved version without asking again. */
export function useNote(path: string | undefined) {
  const [state, setState] = useState<NoteState>({ status: "loading" });

  useEffect(() => {
    if (path === undefined) return;
    let live = true;
    setState({ status: "loading" });
    void requestJson(noteApiPath(path), NoteSchema).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", note: result.data });
      else if (result.error.status === 404) setState({ status: "missing" });
      else setState({ status: "failed", message: explain(result.error, "open this note") });
    });
    return () => {
      live = false;
    };
  }, [path]);

  const replace = useCallback((note: Note) => setState({ status: "ready", note }), []);
  return { state, replace };
}
