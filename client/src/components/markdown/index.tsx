// Markdown (GFM) as Preact elements, for model answers, streamed text, system texts and notes.
// Why marked: it is well kept (frequent releases, wide use), its lexer alone turns text into tokens, so
// no HTML string is ever produced and there is no innerHTML to sanitise (lib/markdown.ts maps the tokens
// to a closed set of nodes, and this file to elements), and it is small (about 12 KB gzip, no
// dependencies). markdown-it and micromark are larger or render to HTML strings. marked is its own
// chunk, fetched as soon as this module is imported (at start-up); until it has arrived, the text is
// shown plain (PlainText), then re-rendered as Markdown.
import { type ComponentChildren, h } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { loadMarkdown, type MdNode, markdownReady, parseMarkdown } from "../../lib/markdown";
import { PlainText } from "../plain-text";
import { CodeBlock } from "./code-block";
import style from "./style.module.css";

function render(nodes: MdNode[]): ComponentChildren {
  return nodes.map((node, index) => renderNode(node, index));
}

function renderNode(node: MdNode, key: number): ComponentChildren {
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
      return <CodeBlock key={key} text={node.text} lang={node.lang} />;
    case "checkbox":
      return <input key={key} type="checkbox" class={style.checkbox} checked={node.checked} disabled />;
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
        >
          {node.image && <span class={style.imageLabel}>Image: </span>}
          {render(node.children)}
        </a>
      );
    case "element": {
      const children = render(node.children);
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

export function Markdown({ text, class: className }: { text: string; class?: string }) {
  const ready = useMarkdownReady();
  const nodes = useMemo(() => (ready ? parseMarkdown(text) : null), [ready, text]);
  if (!nodes)
    return (
      <div class={className} data-testid="markdown" data-pending="">
        <PlainText text={text} />
      </div>
    );
  return (
    <div class={`${style.markdown} ${className ?? ""}`} data-testid="markdown">
      {render(nodes)}
    </div>
  );
}
