// A Markdown text's tokens (marked's lexer, lib/markdown-lexer.ts) as the small tree of allowed nodes of
// lib/markdown.ts. Part of the lexer's chunk, loaded after start-up with marked: lib/markdown.ts keeps only
// the node types, the href and entity rules, and the loading. An answer's `[n]` citations of its sources
// (protocol/web.ts) become superscript links here, built as nodes like every other link.
import type { Token, Tokens } from "marked";
import { citationGroups, type WebSource } from "../../../protocol";
import type { BlockTag, InlineTag, MdNode, TableTag } from "./markdown";
import { decodeEntities, safeHref } from "./markdown";
import type { NamedCheckbox } from "./markdown-lexer";

const text = (value: string): MdNode => ({ kind: "text", text: value });
const element = (tag: BlockTag | InlineTag | TableTag, children: MdNode[], extra: object = {}): MdNode => ({
  kind: "element",
  tag,
  children,
  ...extra,
});

/** The sources of the answer under way by number (set by parseTokens); null: every `[n]` stays text. */
let sourcesByNumber: ReadonlyMap<number, WebSource> | null = null;
/** How deep in a link's text the walk is. */
let inLink = 0;

/** A source's address when it is http(s); a citation of anything else is not linked. */
function sourceHref(source: WebSource | undefined): string | null {
  const href = source ? safeHref(source.url) : null;
  return href && /^https?:/.test(href) ? href : null;
}

/** A citation's number as a link to its source, or as text when the answer has no such source. */
function citationRef(n: number): MdNode {
  const source = sourcesByNumber?.get(n);
  const href = sourceHref(source);
  if (!source || !href) return text(String(n));
  const title = [source.title.trim(), source.site].filter(Boolean).join(" — ");
  return { kind: "link", href, title, children: [text(String(n))], cite: true };
}

/**
 * Text with each `[n]`, `[n, m]` group that names one of the answer's sources (protocol/web.ts
 * citationGroups) as a superscript of links; a group naming none stays as it was written.
 */
function cite(value: string): MdNode[] {
  const sources = sourcesByNumber;
  if (!sources || inLink > 0 || !value.includes("[")) return [text(value)];
  const out: MdNode[] = [];
  let at = 0;
  for (const group of citationGroups(value)) {
    if (!group.numbers.some((n) => sourceHref(sources.get(n)))) continue;
    if (group.start > at) out.push(text(value.slice(at, group.start)));
    const refs = group.numbers.flatMap((n, i) => (i ? [text(" "), citationRef(n)] : [citationRef(n)]));
    out.push(element("sup", refs, { cite: true }));
    at = group.end;
  }
  if (at < value.length) out.push(text(value.slice(at)));
  return out;
}

function inline(tokens: Token[] | undefined): MdNode[] {
  return (tokens ?? []).flatMap(inlineToken);
}

function inlineToken(token: Token): MdNode[] {
  switch (token.type) {
    case "text": {
      const t = token as Tokens.Text;
      return t.tokens?.length ? inline(t.tokens) : cite(decodeEntities(t.text));
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
      // A citation inside a link's text would be a link in a link: its words stay text there.
      inLink++;
      const children = inline(t.tokens);
      inLink--;
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
      return t.tokens?.length ? inline(t.tokens) : cite(decodeEntities(t.text));
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

/**
 * The tree of a lexed text; with `sources` (an answer's, protocol/web.ts), its citations of them are
 * links. The footnotes go last, wherever the lexer put them.
 */
export function parseTokens(tokens: Token[], sources?: readonly WebSource[]): MdNode[] {
  footnoteNumbers = numberFootnotes(tokens);
  sourcesByNumber = sources?.length ? new Map(sources.map((s) => [s.n, s])) : null;
  inLink = 0;
  try {
    return blocks([...tokens.filter((t) => t.type !== "footnotes"), ...tokens.filter((t) => t.type === "footnotes")]);
  } finally {
    sourcesByNumber = null;
  }
}
