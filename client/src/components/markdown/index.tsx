// Markdown (GFM) as Preact elements, for model answers, streamed text, system texts and notes.
// Why marked: it is well kept (frequent releases, wide use), its lexer alone turns text into tokens, so
// no HTML string is ever produced and there is no innerHTML to sanitise (lib/markdown-tree.ts maps the tokens
// to a closed set of nodes, and this file to elements), and it is small (about 12 KB gzip, no
// dependencies). markdown-it and micromark are larger or render to HTML strings. marked is its own
// chunk, fetched as soon as this module is imported (at start-up); until it has arrived, the text is
// shown plain (PlainText), then re-rendered as Markdown. Code highlighting and maths come in chunks of
// their own, loaded by the first code block or formula that needs them (./lazy.ts).
import { type ComponentChildren, h } from "preact";
import { useEffect, useId, useMemo, useState } from "preact/hooks";
import type { WebSource } from "../../../../protocol";
import { loadMarkdown, type MdNode, markdownReady, parseMarkdown } from "../../lib/markdown";
import { PlainText } from "../../ui/plain-text";
import { CodeBlock } from "./code-block";
import { FootnoteRef, Footnotes } from "./footnotes";
import { MathFormula } from "./math";
import style from "./style.module.css";

/** What rendering needs beyond a node: the prefix that makes this text's footnote ids unique on the page. */
interface Context {
  id: string;
}

function render(nodes: MdNode[], ctx: Context): ComponentChildren {
  return nodes.map((node, index) => renderNode(node, index, ctx));
}

function renderNode(node: MdNode, key: number, ctx: Context): ComponentChildren {
  switch (node.kind) {
    case "text":
      return node.text;
    case "codespan":
      return (
        <code key={key} class={style.codespan}>
          {node.text}
        </code>
      );
    case "code":
      return <CodeBlock key={key} text={node.text} lang={node.lang} open={node.open} />;
    case "math":
      return <MathFormula key={key} tex={node.tex} display={node.display} block={node.block} />;
    case "footnoteRef":
      return <FootnoteRef key={key} id={ctx.id} n={node.n} index={node.ref} />;
    case "footnotes":
      return (
        <Footnotes
          key={key}
          id={ctx.id}
          notes={node.notes.map((note) => ({ n: note.n, refs: note.refs, body: render(note.children, ctx) }))}
        />
      );
    case "checkbox":
      return (
        <input
          key={key}
          type="checkbox"
          class={style.checkbox}
          checked={node.checked}
          disabled
          aria-label={node.label}
        />
      );
    case "link":
      return (
        <a
          key={key}
          href={node.href}
          title={node.title}
          target="_blank"
          rel="noopener noreferrer"
          class={node.image ? style.imageLink : undefined}
          data-image={node.image ? "" : undefined}
          data-testid={node.cite ? "citation" : undefined}
        >
          {node.image && <span class={style.imageLabel}>Image: </span>}
          {render(node.children, ctx)}
        </a>
      );
    case "element": {
      const children = render(node.children, ctx);
      if (node.tag === "table")
        return (
          <div key={key} class={style.tableWrap}>
            <table>{children}</table>
          </div>
        );
      if (node.tag === "br" || node.tag === "hr") return h(node.tag, { key });
      const props: Record<string, unknown> = { key };
      if (node.start !== undefined) props.start = node.start;
      if (node.align) props.style = { textAlign: node.align };
      if (node.task) props.class = style.task;
      if (node.cite) props.class = style.cite;
      return h(node.tag, props, children);
    }
  }
}

// Start fetching marked at once, so it is there by the time the first message is shown.
loadMarkdown().catch(() => {
  // Shown plain until a Markdown component retries the load.
});

function useMarkdownReady(): boolean {
  const [ready, setReady] = useState(markdownReady);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadMarkdown().then(
      () => live && setReady(true),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [ready]);
  return ready;
}

/** `sources`: an answer's (protocol/web.ts), whose `[n]` citations become links to them. */
export function Markdown({ text, class: className, sources }: { text: string; class?: string; sources?: WebSource[] }) {
  const id = useId();
  const ready = useMarkdownReady();
  const nodes = useMemo(() => (ready ? parseMarkdown(text, sources) : null), [ready, text, sources]);
  // The same elements while the text is the same: a message rendered again for something else (a turn
  // starting disables its buttons) leaves its Markdown as it is, without walking it again.
  const children = useMemo(() => nodes && render(nodes, { id }), [nodes, id]);
  if (!nodes)
    return (
      <div class={className} data-testid="markdown" data-pending="">
        <PlainText text={text} />
      </div>
    );
  return (
    <div class={`${style.markdown} ${className ?? ""}`} data-testid="markdown">
      {children}
    </div>
  );
}
