// The maths chunk, loaded (components/markdown/lazy.ts) only when a message has maths: KaTeX, its
// stylesheet and, through that, its fonts (served from /assets/, allowed by the CSP's font-src 'self').
// trust: false keeps \href, \url, \includegraphics and \html* off (they render as red error text);
// throwOnError: false shows a formula KaTeX cannot parse as its source, in red. The HTML is read by
// lib/markup-tree.ts (KATEX_POLICY), never set as innerHTML.
import katex from "katex";
import "katex/dist/katex.min.css";

export function texToHtml(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: "ignore",
    output: "htmlAndMathml",
    // A bound on macro expansion, so a hostile \def loop costs little.
    maxExpand: 200,
    maxSize: 20,
  });
}
