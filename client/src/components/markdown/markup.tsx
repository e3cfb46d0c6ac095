// A tree from lib/markup-tree.ts (highlight.js or KaTeX output, allowed tags and attributes only) as
// Preact elements. Preact picks the SVG and MathML namespaces from the `svg` and `math` tags.
import { type ComponentChildren, h } from "preact";
import type { MarkupNode } from "../../lib/markup-tree";

export function renderMarkup(nodes: MarkupNode[]): ComponentChildren {
  return nodes.map((node, key) =>
    typeof node === "string" ? node : h(node.tag, { key, ...node.attrs }, renderMarkup(node.children)),
  );
}
