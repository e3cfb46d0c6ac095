// The Library page's data (seed 002 `#slug` / `/slug`): GET /api/knowledge and /api/workflows once per
// visit, PUT /api/{kind}/:slug to create or replace an entry, DELETE to remove one. The lists are
// updated from the server's answers, so what is shown is what was saved.
import { useCallback, useEffect, useState } from "preact/hooks";
import {
  type EntryInput,
  type LibraryEntry,
  LibraryEntryListSchema,
  LibraryEntrySchema,
  type LibraryEntrySummary,
  type LibraryKind,
} from "../../../protocol/library";
import { type ApiResult, requestEmpty, requestJson } from "./api";

export type { LibraryKind };

export type LibraryListState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; entries: LibraryEntrySummary[] };

export const KINDS: readonly LibraryKind[] = ["knowledge", "workflows"];

const entryPath = (kind: LibraryKind, slug: string) => `/api/${kind}/${encodeURIComponent(slug)}`;

function withEntry(entries: LibraryEntrySummary[], saved: LibraryEntry): LibraryEntrySummary[] {
  const summary = { slug: saved.slug, title: saved.title, body: saved.body, updated_at: saved.updated_at };
  const rest = entries.filter((e) => e.slug !== saved.slug);
  return [...rest, summary].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

export function useLibrary() {
  const [lists, setLists] = useState<Record<LibraryKind, LibraryListState>>({
    knowledge: { status: "loading" },
    workflows: { status: "loading" },
  });

  const update = useCallback((kind: LibraryKind, change: (entries: LibraryEntrySummary[]) => LibraryEntrySummary[]) => {
    setLists((current) => {
      const list = current[kind];
      return list.status === "ready" ? { ...current, [kind]: { ...list, entries: change(list.entries) } } : current;
    });
  }, []);

  useEffect(() => {
    let live = true;
    for (const kind of KINDS) {
      void requestJson(`/api/${kind}`, LibraryEntryListSchema).then((result) => {
        if (!live) return;
        const state: LibraryListState = result.ok
          ? { status: "ready", entries: result.data.entries }
          : { status: "failed", message: result.error.message };
        setLists((current) => ({ ...current, [kind]: state }));
      });
    }
    return () => {
      live = false;
    };
  }, []);

  const save = useCallback(
    async (kind: LibraryKind, slug: string, input: EntryInput): Promise<ApiResult<LibraryEntry>> => {
      const result = await requestJson(entryPath(kind, slug), LibraryEntrySchema, "PUT", input);
      if (result.ok) update(kind, (entries) => withEntry(entries, result.data));
      return result;
    },
    [update],
  );

  const remove = useCallback(
    async (kind: LibraryKind, slug: string): Promise<ApiResult<null>> => {
      const result = await requestEmpty(entryPath(kind, slug), "DELETE");
      // Already gone (another tab) is as good as deleted.
      if (result.ok || result.error.status === 404) update(kind, (entries) => entries.filter((e) => e.slug !== slug));
      return result;
    },
    [update],
  );

  return { lists, save, remove };
}
