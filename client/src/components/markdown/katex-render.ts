// KaTeX for the maths chunk (./katex.ts, which adds its stylesheet), loaded (./lazy.ts) only when a
// message has maths.
// trust: false keeps \href, \url, \includegraphics and \html* off (they render as red error text);
// throwOnError: false shows a formula KaTeX cannot parse as its source, in red. The HTML is read by
// lib/markup-tree.ts (KATEX_POLICY), never set as innerHTML.
import katex from "katex";

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
