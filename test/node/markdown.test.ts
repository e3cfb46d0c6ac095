// The client's Markdown mapping (client/src/lib/markdown.ts) without a browser: which tokens become which
// nodes, that raw HTML stays text, and which hrefs may become links. The browser side (elements, no
// script runs, Copy) is test/e2e/markdown.test.ts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { MdNode } from "../../client/src/lib/markdown.ts";

// A copy of the module of this file's own: the node project's files share their modules (isolate: false),
// and another file may have loaded marked already.
vi.resetModules();
const { decodeEntities, loadMarkdown, markdownReady, parseMarkdown, safeHref } = await import(
  "../../client/src/lib/markdown.ts"
);

beforeAll(async () => {
  // marked is loaded on demand (its own chunk in the client): nothing parses before it is there.
  expect(markdownReady()).toBe(false);
  expect(parseMarkdown("**x**")).toBeNull();
  await loadMarkdown();
  expect(markdownReady()).toBe(true);
});

function parse(source: string): MdNode[] {
  const tree = parseMarkdown(source);
  if (!tree) throw new Error("marked is not loaded");
  return tree;
}

/** Every node of a tree, depth first. */
function all(nodes: MdNode[]): MdNode[] {
  return nodes.flatMap((n) => [n, ...("children" in n ? all(n.children) : [])]);
}
const tags = (nodes: MdNode[]) => all(nodes).flatMap((n) => (n.kind === "element" ? [n.tag] : []));
const texts = (nodes: MdNode[]) =>
  all(nodes)
    .flatMap((n) => (n.kind === "text" || n.kind === "codespan" || n.kind === "code" ? [n.text] : []))
    .join("");
const links = (nodes: MdNode[]) => all(nodes).filter((n) => n.kind === "link");

describe("safeHref", () => {
  it("keeps absolute http, https and mailto URLs", () => {
    expect(safeHref("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeHref("http://example.com")).toBe("http://example.com/");
    expect(safeHref("mailto:someone@example.com")).toBe("mailto:someone@example.com");
    expect(safeHref("HTTPS://Example.com/x")).toBe("https://example.com/x");
    expect(safeHref("https://e.com/?a=1&amp;b=2")).toBe("https://e.com/?a=1&b=2");
  });

  it("refuses every other scheme, relative and unparsable hrefs", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "javascript&colon;alert(1)",
      "&#106;avascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "/relative/path",
      "//evil.example/x",
      "relative",
      "#anchor",
      "",
      "   ",
    ])
      expect(safeHref(href), href).toBeNull();
  });
});

describe("decodeEntities", () => {
  it("decodes the common named and numeric references, and leaves the rest", () => {
    expect(decodeEntities("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#x27; &#128512;")).toBe(`a & b <c> "d" 'e' 😀`);
    expect(decodeEntities("&unknown; &#0; &#xD800; & alone")).toBe("&unknown; &#0; &#xD800; & alone");
  });
});

describe("parseMarkdown", () => {
  it("maps the GFM blocks and inlines to their elements", () => {
    const tree = parse(
      [
        "# Title",
        "",
        "Some **bold**, _em_, ~~gone~~ and `code`.",
        "",
        "- one",
        "- two",
        "",
        "3. three",
        "4. four",
        "",
        "- [ ] open",
        "- [x] done",
        "",
        "> quoted",
        "",
        "| a | b |",
        "|:--|--:|",
        "| 1 | 2 |",
        "",
        "---",
        "",
        "```ts",
        "const x = 1 < 2;",
        "```",
      ].join("\n"),
    );
    const found = tags(tree);
    for (const tag of ["h1", "p", "strong", "em", "del", "ul", "ol", "li", "blockquote", "table", "th", "td", "hr"])
      expect(found, tag).toContain(tag);
    expect(all(tree).find((n) => n.kind === "element" && n.tag === "ol")).toMatchObject({ start: 3 });
    expect(all(tree).filter((n) => n.kind === "checkbox")).toEqual([
      { kind: "checkbox", checked: false, label: "open" },
      { kind: "checkbox", checked: true, label: "done" },
    ]);
    expect(all(tree).filter((n) => n.kind === "element" && n.tag === "td")).toMatchObject([
      { align: "left" },
      { align: "right" },
    ]);
    expect(all(tree).find((n) => n.kind === "code")).toEqual({ kind: "code", lang: "ts", text: "const x = 1 < 2;" });
    expect(all(tree).find((n) => n.kind === "codespan")).toEqual({ kind: "codespan", text: "code" });
  });

  it("names a task item's box by the item's own words, tight or loose, without its sub-list's", () => {
    const tree = parse(
      [
        "- [ ] Buy **milk**",
        "- [x] Call [Ann](https://example.com) about `the trip`",
        "  - [ ] Book the train",
        "",
        "1. [ ] Pack",
        "   the bags",
        "",
        "2. [x] Go",
      ].join("\n"),
    );
    expect(all(tree).flatMap((n) => (n.kind === "checkbox" ? [[n.label, n.checked]] : []))).toEqual([
      ["Buy milk", false],
      ["Call Ann about the trip", true],
      ["Book the train", false],
      ["Pack the bags", false],
      ["Go", true],
    ]);
  });

  it("keeps single line breaks", () => {
    expect(tags(parse("one\ntwo"))).toEqual(["p", "br"]);
  });

  it("shows raw HTML as its text, block or inline, in a table cell too", () => {
    const tree = parse(
      "<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> there\n\n| a |\n|---|\n| <b onclick=x>c</b> |",
    );
    expect(texts(tree)).toContain("<script>alert(1)</script>");
    expect(texts(tree)).toContain("<img src=x onerror=alert(1)>");
    expect(texts(tree)).toContain("<b onclick=x>c</b>");
    expect(tags(tree)).not.toContain("script");
    expect(tags(tree).every((t) => ["p", "table", "thead", "tbody", "tr", "th", "td"].includes(t))).toBe(true);
  });

  it("makes links only of safe hrefs; an unsafe link is its text", () => {
    const tree = parse(
      "[ok](https://example.com) [bad](javascript:alert(1)) [data](data:text/html,x) <https://auto.example> [rel](/x)",
    );
    expect(links(tree)).toEqual([
      { kind: "link", href: "https://example.com/", children: [{ kind: "text", text: "ok" }] },
      { kind: "link", href: "https://auto.example/", children: [{ kind: "text", text: "https://auto.example" }] },
    ]);
    expect(texts(tree)).toContain("bad");
    expect(texts(tree)).toContain("data");
    expect(texts(tree)).toContain("rel");
  });

  it("turns an image into a link labelled with its alt text, or just the text when its URL is unsafe", () => {
    expect(links(parse("![a cat](https://img.example/cat.png)"))).toEqual([
      { kind: "link", href: "https://img.example/cat.png", image: true, children: [{ kind: "text", text: "a cat" }] },
    ]);
    const unsafe = parse("![x](javascript:alert(1))");
    expect(links(unsafe)).toEqual([]);
    expect(texts(unsafe)).toBe("x");
  });

  it("renders partial (streaming) text: an unclosed fence is a code block, unclosed emphasis is text", () => {
    const fence = parse("Here:\n\n```py\nprint(1)\n");
    // `open`: the fence has not closed yet (highlighting waits for it to settle).
    expect(all(fence).find((n) => n.kind === "code")).toEqual({
      kind: "code",
      lang: "py",
      text: "print(1)",
      open: true,
    });
    expect(texts(parse("some **bol"))).toBe("some **bol");
    expect(parse("")).toEqual([]);
  });

  it("decodes character references in text but not in code", () => {
    expect(texts(parse("a &amp; b `&amp;`"))).toBe("a & b &amp;");
  });
});
