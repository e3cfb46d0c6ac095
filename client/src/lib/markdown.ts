// Markdown (GFM) to a small tree of allowed nodes, for components/markdown to turn into Preact elements.
// marked's lexer only tokenises: no HTML string is ever built, so nothing here can become markup. Raw
// HTML tokens come out as their literal text, only http(s) and mailto links become links, images become
// links labelled with their alt text (nothing remote is loaded), and link reference definitions vanish.
// Maths keeps only its TeX source ({kind: "math"}) and code its text: KaTeX and highlight.js render
// them later, in chunks of their own, and only for a text that has them (richNeeds). Footnotes
// (marked-footnote) become numbered references and a list of notes at the end.
// marked is loaded as its own chunk (loadMarkdown, started when the Markdown component is first
// imported) so it stays out of the initial bundle; until it is there, parseMarkdown answers null.
import type { Token, Tokens } from "marked";
import { highlightLanguage } from "./code-languages";
import type { NamedCheckbox } from "./markdown-lexer";

export type BlockTag = "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "ul" | "ol" | "li" | "hr";
export type InlineTag = "strong" | "em" | "del" | "br";
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
  | { kind: "link"; href: string; title?: string; children: MdNode[]; image?: boolean }
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

const text = (value: string): MdNode => ({ kind: "text", text: value });
const element = (tag: BlockTag | InlineTag | TableTag, children: MdNode[], extra: object = {}): MdNode => ({
  kind: "element",
  tag,
  children,
  ...extra,
});

function inline(tokens: Token[] | undefined): MdNode[] {
  return (tokens ?? []).flatMap(inlineToken);
}

function inlineToken(token: Token): MdNode[] {
  switch (token.type) {
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens?.length ? inline(t.tokens) : [text(decodeEntities(t.text))];
    }
    case "escape":
      return [text((token as Tokens.Escape).text)];
    case "strong":
    case "em":
    case "del":
      return [element(token.type, inline((token as Tokens.Strong).tokens))];
    case "br":
      return [element("br", [])];
    case "codespan":
      return [{ kind: "codespan", text: (token as Tokens.Codespan).text }];
    case "link": {
      const t = token as Tokens.Link;
      const children = inline(t.tokens);
      const href = safeHref(t.href);
      if (!href) return children.length ? children : [text(t.text)];
      const title = t.title ? decodeEntities(t.title) : undefined;
      return [{ kind: "link", href, ...(title ? { title } : {}), children: children.length ? children : [text(href)] }];
    }
    case "image": {
      const t = token as Tokens.Image;
      const alt = decodeEntities(t.text) || "image";
      const href = safeHref(t.href);
      return href ? [{ kind: "link", href, children: [text(alt)], image: true }] : [text(alt)];
    }
    case "checkbox": {
      const { checked, label } = token as NamedCheckbox;
      return [{ kind: "checkbox", checked, ...(label ? { label } : {}) }];
    }
    case "html":
      // Raw HTML is shown as the text it is.
      return [text((token as Tokens.HTML).text)];
    case "math": {
      const t = token as Tokens.Generic;
      return [{ kind: "math", tex: String(t.tex), display: t.display === true }];
    }
    case "footnoteRef": {
      const t = token as Tokens.Generic;
      const n = footnoteNumbers.get(String(t.label));
      return n ? [{ kind: "footnoteRef", n, ref: Number(t.index) || 0 }] : [text(t.raw)];
    }
    default:
      // Anything else marked may add: its raw source, as text.
      return token.raw ? [text(token.raw)] : [];
  }
}

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"] as const;

function blocks(tokens: Token[]): MdNode[] {
  return tokens.flatMap(blockToken);
}

function tableCell(cell: Tokens.TableCell): MdNode {
  return element(cell.header ? "th" : "td", inline(cell.tokens), cell.align ? { align: cell.align } : {});
}

function blockToken(token: Token): MdNode[] {
  switch (token.type) {
    case "space":
    case "def":
      return [];
    case "paragraph":
      return [element("p", inline((token as Tokens.Paragraph).tokens))];
    case "heading": {
      const t = token as Tokens.Heading;
      return [element(HEADINGS[Math.min(6, Math.max(1, t.depth)) - 1] ?? "h6", inline(t.tokens))];
    }
    case "hr":
      return [element("hr", [])];
    case "blockquote":
      return [element("blockquote", blocks((token as Tokens.Blockquote).tokens))];
    case "code": {
      const t = token as Tokens.Code;
      const lang = (t.lang ?? "").trim().split(/\s+/)[0] ?? "";
      return [{ kind: "code", text: t.text, lang, ...(fenceOpen(t) ? { open: true } : {}) }];
    }
    case "math": {
      const t = token as Tokens.Generic;
      return [{ kind: "math", tex: String(t.tex), display: true, block: true }];
    }
    case "footnote":
      // A definition: shown in the notes at the end (the `footnotes` token), not where it was written.
      return [];
    case "footnotes": {
      const items = ((token as Tokens.Generic).items ?? []) as { refs: unknown[]; content: Token[] }[];
      if (!items.length) return [];
      const notes = items.map((item, i) => ({ n: i + 1, refs: item.refs.length, children: blocks(item.content) }));
      return [{ kind: "footnotes", notes }];
    }
    case "list": {
      const t = token as Tokens.List;
      const items = t.items.map((item) =>
        // A tight item holds `text` tokens (inline), a loose one paragraphs; both are handled per token.
        element("li", blocks(item.tokens), item.task ? { task: true } : {}),
      );
      const start = t.ordered && typeof t.start === "number" && t.start !== 1 ? { start: t.start } : {};
      return [element(t.ordered ? "ol" : "ul", items, start)];
    }
    case "table": {
      const t = token as Tokens.Table;
      return [
        element("table", [
          element("thead", [element("tr", t.header.map(tableCell))]),
          element(
            "tbody",
            t.rows.map((row) => element("tr", row.map(tableCell))),
          ),
        ]),
      ];
    }
    case "html":
      return [element("p", [text((token as Tokens.HTML).text)])];
    case "text": {
      // Block-level text: the body of a tight list item, inline tokens inside.
      const t = token as Tokens.Text;
      return t.tokens?.length ? inline(t.tokens) : [text(decodeEntities(t.text))];
    }
    case "checkbox":
      return inlineToken(token);
    default:
      return token.raw ? [element("p", [text(token.raw)])] : [];
  }
}

/** A fenced block whose closing fence has not come yet (an indented block is always whole). */
function fenceOpen(token: Tokens.Code): boolean {
  if (token.codeBlockStyle === "indented") return false;
  const lines = token.raw.trimEnd().split("\n");
  return lines.length < 2 || !/^ {0,3}(`{3,}|~{3,})[ \t]*$/.test(lines.at(-1) ?? "");
}

/** Footnote labels to their numbers, for the parse under way (set by parseMarkdown). */
let footnoteNumbers = new Map<string, number>();

function numberFootnotes(tokens: Token[]): Map<string, number> {
  const notes = tokens.find((t) => t.type === "footnotes") as Tokens.Generic | undefined;
  const items = (notes?.items ?? []) as { label: string }[];
  return new Map(items.map((item, i) => [item.label, i + 1]));
}

let lex: ((source: string) => Token[]) | undefined;
let loading: Promise<void> | undefined;

/** Loads the lexer chunk once; a failed load (e.g. offline after a deploy) is retried on the next call. */
export function loadMarkdown(): Promise<void> {
  loading ??= import("./markdown-lexer").then(
    (lexer) => {
      lex = lexer.lex;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether parseMarkdown can parse yet. */
export const markdownReady = () => lex !== undefined;

/**
 * The tree of a Markdown text, or null while marked is still loading. Partial text (a stream) parses too: an unclosed fence is a code block.
 * Single line breaks are kept (`breaks`), as people and models write chat text. Fresh options per call:
 * the lexer stores its tokenizer on the object it is given.
 */
export function parseMarkdown(source: string): MdNode[] | null {
  if (!lex) return null;
  try {
    const tokens = lex(source);
    footnoteNumbers = numberFootnotes(tokens);
    // The notes go last, wherever the lexer put them.
    return blocks([...tokens.filter((t) => t.type !== "footnotes"), ...tokens.filter((t) => t.type === "footnotes")]);
  } catch {
    // The lexer gave up (it throws on input it cannot advance through): the text as it is.
    return [element("p", [text(source)])];
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
