// Issue 26, the pure side of code, maths and footnotes in answers: which texts need the highlight or
// KaTeX chunk (client/src/lib/markdown.ts richNeeds; prices are not maths), the maths and footnote
// nodes the lexer chunk produces, and that highlight.js's and KaTeX's output, read by
// client/src/lib/markup-tree.ts, can only become allowed elements and attributes, even for hostile TeX.
// The browser side is test/e2e/rich-markdown.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { highlightToHtml, registeredNames } from "../../client/src/components/markdown/highlight-languages.ts";
import { texToHtml } from "../../client/src/components/markdown/katex-render.ts";
import { CODE_LANGUAGES, highlightLanguage } from "../../client/src/lib/code-languages.ts";
import { loadMarkdown, type MdNode, parseMarkdown, richNeeds } from "../../client/src/lib/markdown.ts";
import { HIGHLIGHT_POLICY, KATEX_POLICY, type MarkupNode, readMarkup } from "../../client/src/lib/markup-tree.ts";

beforeAll(() => loadMarkdown());

function parse(source: string): MdNode[] {
  const tree = parseMarkdown(source);
  if (!tree) throw new Error("marked is not loaded");
  return tree;
}

function all(nodes: MdNode[]): MdNode[] {
  return nodes.flatMap((n) => [
    n,
    ...("children" in n ? all(n.children) : []),
    ...(n.kind === "footnotes" ? all(n.notes.flatMap((note) => note.children)) : []),
  ]);
}
const of = <K extends MdNode["kind"]>(nodes: MdNode[], kind: K) =>
  all(nodes).filter((n): n is Extract<MdNode, { kind: K }> => n.kind === kind);
const texts = (nodes: MdNode[]) =>
  all(nodes)
    .flatMap((n) => (n.kind === "text" ? [n.text] : []))
    .join("");

describe("maths delimiters", () => {
  it("finds $…$ inline, $$…$$ and \\[…\\] display, \\(…\\) inline", () => {
    expect(of(parse("Einstein: $E = mc^2$, famously."), "math")).toEqual([
      { kind: "math", tex: "E = mc^2", display: false },
    ]);
    expect(of(parse("$$\n\\int_0^1 x\\,dx\n$$"), "math")).toEqual([
      { kind: "math", tex: "\\int_0^1 x\\,dx", display: true, block: true },
    ]);
    expect(of(parse("\\[\na^2 + b^2 = c^2\n\\]"), "math")).toEqual([
      { kind: "math", tex: "a^2 + b^2 = c^2", display: true, block: true },
    ]);
    expect(of(parse("so \\(x+1\\) grows"), "math")).toEqual([{ kind: "math", tex: "x+1", display: false }]);
    // A display block interrupts the paragraph before it.
    expect(of(parse("Sum:\n$$\na+b\n$$\nend"), "math")).toEqual([
      { kind: "math", tex: "a+b", display: true, block: true },
    ]);
    expect(of(parse("inline $$a+b$$ display"), "math")).toEqual([{ kind: "math", tex: "a+b", display: true }]);
    expect(of(parse("$x$ and $\\{a\\}$ and $a\\$b$"), "math").map((m) => m.tex)).toEqual(["x", "\\{a\\}", "a\\$b"]);
  });

  it("leaves prices, shell variables and code as text", () => {
    for (const source of [
      "It costs $5 and $10.",
      "$5, $10 or $20",
      "between $5-$10 per hour",
      "$5/$10",
      "US$5 and US$10",
      "5$ and 10$",
      "echo $HOME and $PATH",
      "\\$5 and \\$10",
      "a single $ sign",
      "`$x$` in code",
      "```sh\necho $x$\n```",
    ]) {
      const tree = parse(source);
      expect(of(tree, "math"), source).toEqual([]);
      expect(richNeeds(tree).math, source).toBe(false);
    }
    expect(texts(parse("It costs $5 and $10."))).toBe("It costs $5 and $10.");
  });
});

describe("richNeeds", () => {
  it("asks for nothing for a text without code or maths", () => {
    expect(richNeeds(parse("Just **words**, a [link](https://e.com) and a table:\n\n|a|\n|-|\n|1|"))).toEqual({
      highlight: false,
      math: false,
    });
  });

  it("asks for highlighting only for code in a known language", () => {
    expect(richNeeds(parse("```ts\nconst x = 1;\n```")).highlight).toBe(true);
    expect(richNeeds(parse("- item\n\n  ```Python\n  print(1)\n  ```")).highlight).toBe(true);
    expect(richNeeds(parse("```\nplain\n```")).highlight).toBe(false);
    expect(richNeeds(parse("```text\nplain\n```")).highlight).toBe(false);
    expect(richNeeds(parse("```brainfuck\n+++\n```")).highlight).toBe(false);
    expect(richNeeds(parse("`const x` inline")).highlight).toBe(false);
  });

  it("asks for maths for a formula anywhere, footnotes included", () => {
    expect(richNeeds(parse("$x$"))).toEqual({ highlight: false, math: true });
    expect(richNeeds(parse("See[^1].\n\n[^1]: Where $y = 2$."))).toEqual({ highlight: false, math: true });
    expect(richNeeds(parse("> quoted $$a$$"))).toEqual({ highlight: false, math: true });
  });
});

describe("footnotes", () => {
  const SOURCE = "First[^a] and second[^b], first again[^a].\n\n[^a]: Note **A**.\n[^b]: Note B.\n\nAfter.";

  it("numbers references in order and lists the notes last", () => {
    for (let run = 0; run < 2; run++) {
      // Twice: marked-footnote's state from one parse must not leak into the next.
      const tree = parse(SOURCE);
      expect(of(tree, "footnoteRef").map((r) => [r.n, r.ref])).toEqual([
        [1, 0],
        [2, 0],
        [1, 1],
      ]);
      const last = tree.at(-1);
      expect(last?.kind).toBe("footnotes");
      if (last?.kind !== "footnotes") return;
      expect(last.notes.map((note) => [note.n, note.refs, texts(note.children)])).toEqual([
        [1, 2, "Note A."],
        [2, 1, "Note B."],
      ]);
      expect(texts(tree)).toContain("After.");
    }
  });

  it("leaves a reference to a missing note as text, and a text without notes has none", () => {
    const tree = parse("See [^nope] here.");
    expect(of(tree, "footnoteRef")).toEqual([]);
    expect(texts(tree)).toContain("[^nope]");
    expect(of(parse("No notes."), "footnotes")).toEqual([]);
  });
});

describe("streamed code", () => {
  it("marks a fence still open, not a closed one", () => {
    expect(of(parse("```ts\nconst a = 1;"), "code")[0]?.open).toBe(true);
    expect(of(parse("```ts"), "code")[0]?.open).toBe(true);
    expect(of(parse("```ts\nconst a = 1;\n```"), "code")[0]?.open).toBeUndefined();
    expect(of(parse("    indented"), "code")[0]?.open).toBeUndefined();
  });
});

/** Every element of a markup tree, depth first. */
function elements(nodes: MarkupNode[]): Exclude<MarkupNode, string>[] {
  return nodes.flatMap((n) => (typeof n === "string" ? [] : [n, ...elements(n.children)]));
}
const markupText = (nodes: MarkupNode[]): string =>
  nodes.map((n) => (typeof n === "string" ? n : markupText(n.children))).join("");

describe("readMarkup", () => {
  it("keeps allowed tags and attributes, drops the others, refuses unknown tags and broken markup", () => {
    expect(readMarkup('<span class="hljs-keyword">if</span> (a &lt; b)', HIGHLIGHT_POLICY)).toEqual([
      { tag: "span", attrs: { class: "hljs-keyword" }, children: ["if"] },
      " (a < b)",
    ]);
    expect(readMarkup('<span class="x" onclick="alert(1)" id="y">t</span>', HIGHLIGHT_POLICY)).toEqual([
      { tag: "span", attrs: { class: "x" }, children: ["t"] },
    ]);
    expect(readMarkup('<span style="background:url(https://evil.example/x)">t</span>', KATEX_POLICY)).toEqual([
      { tag: "span", attrs: {}, children: ["t"] },
    ]);
    for (const html of [
      "<img src=x onerror=alert(1)>",
      '<img src="x">',
      "<script>alert(1)</script>",
      '<a href="javascript:alert(1)">x</a>',
      "<span>unclosed",
      "</span>",
      "<span></div>",
      "<span class='single'>x</span>",
      "<!-- comment -->",
      "a < b",
    ])
      expect(readMarkup(html, KATEX_POLICY), html).toBeNull();
  });
});

describe("highlight.js output", () => {
  it("registers every language name lib/code-languages.ts lists, and no other", () => {
    const table = Object.entries(CODE_LANGUAGES).flatMap(([name, aliases]) => [name, ...aliases]);
    expect(new Set(registeredNames())).toEqual(new Set(table));
    expect(highlightLanguage("TS")).toBe("typescript");
    expect(highlightLanguage("")).toBeNull();
  });

  it("becomes spans around the code's exact text, even for code that is HTML", () => {
    const code = '<img src=x onerror="alert(1)"><script>alert(2)</script> &amp; "q"';
    for (const language of ["xml", "typescript", "markdown"]) {
      const tree = readMarkup(highlightToHtml(code, language) ?? "", HIGHLIGHT_POLICY);
      expect(tree, language).not.toBeNull();
      expect(markupText(tree ?? [])).toBe(code);
      for (const el of elements(tree ?? [])) {
        expect(el.tag).toBe("span");
        expect(Object.keys(el.attrs).every((a) => a === "class")).toBe(true);
      }
    }
    const ts = readMarkup(highlightToHtml("const x: number = 1;", "typescript") ?? "", HIGHLIGHT_POLICY) ?? [];
    expect(elements(ts).map((e) => e.attrs.class)).toContain("hljs-keyword");
  });
});

describe("KaTeX output", () => {
  it("renders a formula into allowed markup only", () => {
    const tree = readMarkup(texToHtml("\\sqrt{x^2+1} = \\overrightarrow{AB}", true), KATEX_POLICY);
    expect(tree).not.toBeNull();
    const tags = new Set(elements(tree ?? []).map((e) => e.tag));
    expect([...tags]).toEqual(expect.arrayContaining(["span", "math", "svg", "path"]));
  });

  it("keeps hostile TeX inert: no link, no class or id of its choosing, no script", () => {
    for (const tex of [
      "\\href{javascript:alert(1)}{x}",
      "\\url{javascript:alert(1)}",
      "\\includegraphics{https://evil.example/x.png}",
      "\\htmlClass{hljs-keyword}{x}",
      "\\htmlId{app}{x}",
      "\\htmlStyle{background:url(https://evil.example)}{x}",
      "\\htmlData{onclick=alert(1)}{x}",
      "\\text{<script>alert(1)</script>}",
      "\\textcolor{red;background:url(x)}{y}",
      "\\def\\a{\\a\\a}\\a",
      "\\frac{",
    ]) {
      const tree = readMarkup(texToHtml(tex, false), KATEX_POLICY);
      expect(tree, tex).not.toBeNull();
      for (const el of elements(tree ?? [])) {
        expect(KATEX_POLICY.tags.has(el.tag), tex).toBe(true);
        for (const [name, value] of Object.entries(el.attrs)) {
          expect(name, tex).not.toMatch(/^(on|href|src|id|data-)/i);
          expect(value, tex).not.toMatch(/javascript:|url\(/i);
          if (name === "class") expect(value, tex).not.toContain("hljs-keyword");
        }
      }
    }
  });
});
