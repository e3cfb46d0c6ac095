// The completion popup's lists (use-completion.ts), fetched the first time a sigil asks for them and
// cached for as long as the composer is mounted: knowledge and workflows once each, notes per prefix
// (debounced), and a prefix whose listing came back complete answers every longer prefix without asking
// the server again. `candidatesFor` ranks what is loaded for the trigger at the caret.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { z } from "zod";
import { LibraryEntryListSchema } from "../../../protocol/library";
import { MAX_LISTED_NOTES } from "../../../protocol/notes";
import { requestJson } from "./api";
import { type Candidate, type CompletionKind, noteCandidates, rankCandidates, type Trigger } from "./completion";

const NOTES_DEBOUNCE_MS = 120;

const NoteListSchema = z.object({ notes: z.array(z.object({ path: z.string() })) });

type NoteListing = { paths: string[]; complete: boolean } | "loading";
type Cache = {
  knowledge?: Candidate[] | "loading";
  workflow?: Candidate[] | "loading";
  notes: Map<string, NoteListing>;
};

/** The longest loaded listing whose prefix the query extends, preferring a complete one. */
function bestListing(notes: Map<string, NoteListing>, query: string) {
  let best: { prefix: string; paths: string[]; complete: boolean } | undefined;
  for (const [prefix, listing] of notes) {
    if (listing === "loading" || !query.startsWith(prefix)) continue;
    if (
      !best ||
      (listing.complete && !best.complete) ||
      (listing.complete === best.complete && prefix.length > best.prefix.length)
    )
      best = { prefix, ...listing };
  }
  return best;
}

/** The lists the trigger's kind and query need, loading what is missing; re-renders when one arrives. */
export function useCompletionLists(kind: CompletionKind | null, query: string) {
  const cache = useRef<Cache>({ notes: new Map() });
  const [, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  // Fetch what the open trigger needs, once.
  useEffect(() => {
    if (kind === "knowledge" || kind === "workflow") {
      const key = kind;
      if (cache.current[key]) return;
      cache.current[key] = "loading";
      const path = kind === "knowledge" ? "/api/knowledge" : "/api/workflows";
      void requestJson(path, LibraryEntryListSchema).then((result) => {
        cache.current[key] = result.ok ? result.data.entries.map((e) => ({ value: e.slug, detail: e.title })) : [];
        bump();
      });
      return;
    }
    if (kind !== "note") return;
    const notes = cache.current.notes;
    const covered = [...notes].some(
      ([prefix, listing]) => query.startsWith(prefix) && listing !== "loading" && listing.complete,
    );
    if (covered || notes.has(query)) return;
    const timer = setTimeout(() => {
      notes.set(query, "loading");
      const path = query ? `/api/notes?prefix=${encodeURIComponent(query)}` : "/api/notes";
      void requestJson(path, NoteListSchema).then((result) => {
        const paths = result.ok ? result.data.notes.map((n) => n.path) : [];
        // A refused prefix has no notes under it, now or for any longer prefix.
        notes.set(query, { paths, complete: !result.ok || paths.length < MAX_LISTED_NOTES });
        bump();
      });
    }, NOTES_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [kind, query, bump]);

  return cache.current;
}

/** The candidates for the trigger, ranked. Recomputed on every render: a few hundred at most. */
export function candidatesFor(cache: Cache, trigger: Trigger): Candidate[] {
  if (trigger.kind === "note") {
    const listing = bestListing(cache.notes, trigger.query);
    const candidates = noteCandidates(listing?.paths ?? []).filter((c) => c.value !== trigger.query);
    // An incomplete listing only vouches for paths under the query, compared as the server compares them.
    return listing?.complete
      ? rankCandidates(candidates, trigger.query)
      : rankCandidates(
          candidates.filter((c) => c.value.startsWith(trigger.query)),
          "",
        );
  }
  const list = cache[trigger.kind];
  return Array.isArray(list) ? rankCandidates(list, trigger.query) : [];
}
