// Reads the HTML that highlight.js and KaTeX produce into a tree of allowed elements, for Preact to
// build (components/markdown/markup.tsx): their output is never given to innerHTML. Both libraries
// escape every character of the text they are given, so their markup is regular (double-quoted
// attributes, balanced tags); the reader accepts only that shape, only the tags a policy lists and
// only the attributes it lists (never an on* handler, an href or a src). Anything else makes the
// whole fragment null, and the caller shows the source as plain text. Styles are set by Preact
// through the CSSOM (style.cssText), which the CSP's style-src does not govern; a style with url(
// or a backslash is dropped.
import { decodeEntities } from "./markdown";

export type MarkupNode = string | { tag: string; attrs: Record<string, string>; children: MarkupNode[] };

export interface MarkupPolicy {
  tags: ReadonlySet<string>;
  attrs: ReadonlySet<string>;
}

/** highlight.js: spans with classes. */
export const HIGHLIGHT_POLICY: MarkupPolicy = { tags: new Set(["span"]), attrs: new Set(["class"]) };

const MATHML = [
  "math",
  "semantics",
  "annotation",
  "mrow",
  "mi",
  "mn",
  "mo",
  "ms",
  "mtext",
  "mspace",
  "msup",
  "msub",
  "msubsup",
  "mfrac",
  "msqrt",
  "mroot",
  "mover",
  "munder",
  "munderover",
  "mtable",
  "mtr",
  "mtd",
  "mlabeledtr",
  "mstyle",
  "mpadded",
  "mphantom",
  "menclose",
  "merror",
];

/** KaTeX: its spans, the SVG of stretchy symbols and the MathML copy screen readers read. */
export const KATEX_POLICY: MarkupPolicy = {
  tags: new Set(["span", "svg", "path", "line", ...MATHML]),
  attrs: new Set([
    "class",
    "style",
    "aria-hidden",
    // SVG
    "width",
    "height",
    "viewBox",
    "preserveAspectRatio",
    "d",
    "x1",
    "x2",
    "y1",
    "y2",
    "stroke-width",
    // MathML
    "display",
    "encoding",
    "mathvariant",
    "mathcolor",
    "mathbackground",
    "mathsize",
    "stretchy",
    "fence",
    "separator",
    "accent",
    "accentunder",
    "lspace",
    "rspace",
    "minsize",
    "maxsize",
    "symmetric",
    "largeop",
    "movablelimits",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "columnlines",
    "rowlines",
    "frame",
    "framespacing",
    "displaystyle",
    "scriptlevel",
    "linethickness",
    "notation",
    "depth",
    "voffset",
  ]),
};

const OPEN = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9:-]*(?:="[^"<]*")?)*)\s*(\/?)>/y;
const CLOSE = /<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/y;
const TEXT = /[^<]+/y;
const ATTR = /([a-zA-Z][a-zA-Z0-9:-]*)(?:="([^"]*)")?/g;

type Element = Exclude<MarkupNode, string>;

function attributes(source: string, policy: MarkupPolicy): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name = "", raw = ""] of source.matchAll(ATTR)) {
    const value = decodeEntities(raw);
    if (!policy.attrs.has(name) || /^on/i.test(name)) continue;
    if (name === "style" && /url\(|\\|expression|@import/i.test(value)) continue;
    attrs[name] = value;
  }
  return attrs;
}

/** The tree of a fragment of highlight.js or KaTeX markup, or null when it holds anything the policy does not allow. */
export function readMarkup(html: string, policy: MarkupPolicy): MarkupNode[] | null {
  const root: Element = { tag: "", attrs: {}, children: [] };
  const stack: Element[] = [root];
  let at = 0;
  while (at < html.length) {
    const top = stack.at(-1) ?? root;
    TEXT.lastIndex = at;
    const text = TEXT.exec(html);
    if (text) {
      top.children.push(decodeEntities(text[0]));
      at = TEXT.lastIndex;
      continue;
    }
    CLOSE.lastIndex = at;
    const close = CLOSE.exec(html);
    if (close) {
      if (stack.length < 2 || close[1] !== top.tag) return null;
      stack.pop();
      at = CLOSE.lastIndex;
      continue;
    }
    OPEN.lastIndex = at;
    const open = OPEN.exec(html);
    if (!open) return null;
    const tag = open[1] ?? "";
    if (!policy.tags.has(tag)) return null;
    const element: Element = { tag, attrs: attributes(open[2] ?? "", policy), children: [] };
    top.children.push(element);
    if (open[3] !== "/") stack.push(element);
    at = OPEN.lastIndex;
  }
  return stack.length === 1 ? root.children : null;
}
