// Search over every conversation (GET /api/search): typed words are sent once typing pauses, and the
// hits show under the box, each with its conversation's title and the matching words marked (<Snippet>),
// the user's own words and answers before a step's narration (the server ranks them), each labelled.
// Esc or × clears the box and the sidebar shows the conversations again. Ctrl/⌘+K puts the cursor here.
import { useEffect, useRef, useState } from "preact/hooks";
import { SearchResponseSchema, type SearchResult } from "../../../../protocol";
import { requestJson } from "../../lib/api";
import { useSearchFocus } from "../../lib/use-shortcuts";
import { Link } from "../../ui/link";
import { Snippet } from "../snippet";
import style from "./style.module.css";

const DEBOUNCE_MS = 250;

/** What a hit is, in a word before its snippet. */
const KIND_LABEL = { user: "You", answer: "Answer", step: "Step" } as const;

type Found =
  | { status: "idle" }
  | { status: "searching" }
  | { status: "done"; results: SearchResult[] }
  | { status: "error"; message: string };

function useSearch(query: string): Found {
  const [found, setFound] = useState<Found>({ status: "idle" });
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setFound({ status: "idle" });
      return;
    }
    setFound((current) => (current.status === "done" ? current : { status: "searching" }));
    let live = true;
    const timer = setTimeout(async () => {
      const result = await requestJson(`/api/search?q=${encodeURIComponent(q)}`, SearchResponseSchema);
      if (!live) return; // a newer query owns the results now
      setFound(
        result.ok
          ? { status: "done", results: result.data.results }
          : { status: "error", message: result.error.message },
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);
  return found;
}

type Props = { query: string; onQuery: (query: string) => void };

export function ConversationSearch({ query, onQuery }: Props) {
  const found = useSearch(query);
  const input = useRef<HTMLInputElement>(null);
  useSearchFocus(input);
  return (
    <search class={style.search} data-testid="conversation-search">
      <div class={style.box}>
        <input
          ref={input}
          type="search"
          class={style.input}
          value={query}
          placeholder="Search conversations"
          aria-label="Search conversations"
          maxLength={200}
          onInput={(event) => onQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape" && query) {
              event.preventDefault();
              event.stopPropagation(); // clears the search; a second Esc may close the drawer
              onQuery("");
            }
          }}
          data-testid="search-input"
        />
        {query && (
          <button
            type="button"
            class={style.clear}
            aria-label="Clear search"
            title="Clear search"
            onClick={(event) => {
              onQuery("");
              (event.currentTarget.previousElementSibling as HTMLElement | null)?.focus();
            }}
            data-testid="search-clear"
          >
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      {query.trim() !== "" && (
        <div class={style.results} aria-live="polite">
          {found.status === "searching" && <p class={style.muted}>Searching…</p>}
          {found.status === "error" && (
            <p class={style.error} role="alert">
              {found.message}
            </p>
          )}
          {found.status === "done" && found.results.length === 0 && (
            <p class={style.muted} data-testid="search-empty">
              No matches
            </p>
          )}
          {found.status === "done" && found.results.length > 0 && (
            <ul class={style.list} data-testid="search-results">
              {found.results.map((result, index) => (
                <li key={`${result.conversation_id}:${result.seq ?? "title"}`}>
                  <Link
                    href={`/c/${encodeURIComponent(result.conversation_id)}${result.seq ? `#m${result.seq}` : ""}`}
                    class={style.result}
                    title={result.title}
                    data-testid="search-result"
                    data-kind={result.kind}
                  >
                    {/* A conversation's further hits follow its first one, under the same title. */}
                    {found.results[index - 1]?.conversation_id !== result.conversation_id && (
                      <span class={style.title}>{result.title || "Untitled conversation"}</span>
                    )}
                    <span class={style.snippet}>
                      {result.kind && <span class={style.kind}>{KIND_LABEL[result.kind]}: </span>}
                      <Snippet text={result.snippet} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </search>
  );
}
