// Markdown (GFM) to a small tree of allowed nodes, for components/markdown to turn into Preact elements
// (the tokens are mapped in lib/markdown-tree.ts, part of the lexer's chunk).
// marked's lexer only tokenises: no HTML string is ever built, so nothing here can become markup. Raw
// HTML tokens come out as their literal text, only http(s) and mailto links become links, images become
// links labelled with their alt text (nothing remote is loaded), and link reference definitions vanish.
// Maths keeps only its TeX source ({kind: "math"}) and code its text: KaTeX and highlight.js render
// them later, in chunks of their own, and only for a text that has them (richNeeds). Footnotes
// (marked-footnote) become numbered references and a list of notes at the end. An answer's `[n]`
// citations of its sources (protocol/web.ts) become superscript links to them.
// marked is loaded as its own chunk (loadMarkdown, started when the Markdown component is first
// imported) so it stays out of the initial bundle; until it is there, parseMarkdown answers null.
import type { WebSource } from "../../../protocol";
import { highlightLanguage } from "./code-languages";

export type BlockTag = "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "ul" | "ol" | "li" | "hr";
export type InlineTag = "strong" | "em" | "del" | "br" | "sup";
export type TableTag = "table" | "thead" | "tbody" | "tr" | "th" | "td";
export type Align = "left" | "center" | "right";

export type MdNode =
  | { kind: "text"; text: string }
  | {
      kind: "element";
      tag: BlockTag | InlineTag | TableTag;
      children: MdNode[];
      /** `ol` only: the number of its first item, when not 1. */
      start?: number;
      /** `th`/`td` only. */
      align?: Align;
      /** `li` of a task list. */
      task?: boolean;
      /** `sup` of an answer's citation (`[1]`, `[1, 2]`) of its sources. */
      cite?: boolean;
    }
  | {
      kind: "code";
      text: string;
      lang: string;
      /** A fence still open (the text is streaming): highlighting waits until it stops changing. */
      open?: boolean;
    }
  /** `block`: a display formula on lines of its own (not inside a paragraph). */
  | { kind: "math"; tex: string; display: boolean; block?: boolean }
  /** A reference to footnote `n` (1-based, in order of first reference); `ref` counts its references. */
  | { kind: "footnoteRef"; n: number; ref: number }
  | { kind: "footnotes"; notes: { n: number; refs: number; children: MdNode[] }[] }
  | { kind: "codespan"; text: string }
  /** `cite`: a citation's number, linking to the source it names (lib/markdown-tree.ts). */
  | { kind: "link"; href: string; title?: string; children: MdNode[]; image?: boolean; cite?: boolean }
  /** A task item's box; `label`: the item's words, its accessible name. */
  | { kind: "checkbox"; checked: boolean; label?: string };

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * marked leaves character references as written ("&amp;"); they are decoded for display. Only the common
 * named ones and numeric ones: the result always goes into a text node or through safeHref.
 */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/**
 * The href a link may carry: an absolute http:, https: or mailto: URL, normalised by the URL parser (which
 * also drops the tabs and newlines a "java\tscript:" trick relies on). Anything else (javascript:, data:,
 * vbscript:, relative or unparsable) is null, and the link is shown as its text.
 */
export function safeHref(raw: string): string | null {
  const href = decodeEntities(raw).trim();
  if (href === "") return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}

let parse: ((source: string, sources?: readonly WebSource[]) => MdNode[]) | undefined;
let loading: Promise<void> | undefined;

/** Loads the lexer chunk once; a failed load (e.g. offline after a deploy) is retried on the next call. */
export function loadMarkdown(): Promise<void> {
  loading ??= import("./markdown-lexer").then(
    (lexer) => {
      parse = lexer.parse;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether parseMarkdown can parse yet. */
export const markdownReady = () => parse !== undefined;

/**
 * The tree of a Markdown text, or null while marked is still loading. Partial text (a stream) parses too:
 * an unclosed fence is a code block. Single line breaks are kept (`breaks`), as people and models write
 * chat text. With `sources` (an answer's), its `[n]` citations of them are superscript links.
 */
export function parseMarkdown(source: string, sources?: readonly WebSource[]): MdNode[] | null {
  if (!parse) return null;
  try {
    return parse(source, sources);
  } catch {
    // The lexer gave up (it throws on input it cannot advance through): the text as it is.
    return [{ kind: "element", tag: "p", children: [{ kind: "text", text: source }] }];
  }
}

/** What a parsed text needs beyond the Markdown chunk: highlight.js for code in a known language, KaTeX for maths. */
export interface RichNeeds {
  highlight: boolean;
  math: boolean;
}

/** Which lazy chunks a tree needs; a text without code or maths needs neither. */
export function richNeeds(nodes: MdNode[]): RichNeeds {
  const needs: RichNeeds = { highlight: false, math: false };
  const visit = (list: MdNode[]) => {
    for (const node of list) {
      if (node.kind === "math") needs.math = true;
      else if (node.kind === "code" && highlightLanguage(node.lang)) needs.highlight = true;
      else if (node.kind === "element" || node.kind === "link") visit(node.children);
      else if (node.kind === "footnotes") for (const note of node.notes) visit(note.children);
      if (needs.math && needs.highlight) return;
    }
  };
  visit(nodes);
  return needs;
}
