// The two chunks a message may need beyond Markdown, loaded on first need and kept: highlight.js
// (./highlight.ts) for code in a known language, KaTeX (./katex.ts) for maths. A text with neither
// never loads them. Results are cached by their source, so a streamed answer re-rendered on every delta
// runs highlight.js or KaTeX once per finished block or formula, not once per delta.
import { useEffect, useState } from "preact/hooks";
import { HIGHLIGHT_POLICY, KATEX_POLICY, type MarkupNode, readMarkup } from "../../lib/markup-tree";

interface Lazy<T> {
  load(): Promise<T>;
  get(): T | undefined;
}

/** One dynamic import, retried on the next call after a failure (e.g. offline after a deploy). */
function lazy<T>(importer: () => Promise<T>): Lazy<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          value = module;
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get: () => value,
  };
}

export const highlighter = lazy(() => import("./highlight"));
export const maths = lazy(() => import("./katex"));

/** Whether a chunk is there, loading it when `wanted`; re-renders the caller once it arrives. */
export function useLazy<T>(chunk: Lazy<T>, wanted: boolean): boolean {
  const [ready, setReady] = useState(() => chunk.get() !== undefined);
  useEffect(() => {
    if (ready || !wanted) return;
    let live = true;
    chunk.load().then(
      () => live && setReady(true),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [chunk, ready, wanted]);
  return ready || chunk.get() !== undefined;
}

const MAX_CACHED = 300;

function cached(cache: Map<string, MarkupNode[] | null>, key: string, make: () => MarkupNode[] | null) {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let value: MarkupNode[] | null;
  try {
    value = make();
  } catch {
    value = null;
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? "");
  cache.set(key, value);
  return value;
}

const highlights = new Map<string, MarkupNode[] | null>();
const formulas = new Map<string, MarkupNode[] | null>();

/** Highlighted code as a tree of spans, or null (chunk not there yet, language unknown, or markup refused). */
export function highlightedCode(code: string, language: string): MarkupNode[] | null {
  const chunk = highlighter.get();
  if (!chunk) return null;
  return cached(highlights, `${language}\n${code}`, () => {
    const html = chunk.highlightToHtml(code, language);
    return html === null ? null : readMarkup(html, HIGHLIGHT_POLICY);
  });
}

/** A formula rendered by KaTeX as a tree, or null (chunk not there yet, or markup refused). */
export function renderedMath(tex: string, display: boolean): MarkupNode[] | null {
  const chunk = maths.get();
  if (!chunk) return null;
  return cached(formulas, `${display ? "D" : "I"}${tex}`, () =>
    readMarkup(chunk.texToHtml(tex, display), KATEX_POLICY),
  );
}
