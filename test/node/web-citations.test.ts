// Issue 46, the chat's side of the web tools without a browser: an answer's `[n]` citations of its
// sources as superscript links in its Markdown tree (client/src/lib/markdown-tree.ts), the Sources an
// export lists after the answer (protocol/transcript-markdown.ts), a web tool call in words
// (client/src/lib/web-words.ts) and Settings → Web's address. The browser side (the links, the Sources
// list, reload and share) is test/e2e/web-sources.test.ts.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { MdNode } from "../../client/src/lib/markdown.ts";
import { parseRoute } from "../../client/src/lib/router.ts";
import { webCallWords } from "../../client/src/lib/web-words.ts";
import { transcriptMarkdown } from "../../protocol/transcript-markdown.ts";
import type { WebSource } from "../../protocol/web.ts";

// A copy of the module of this file's own (the node project shares modules between files; see markdown.test.ts).
vi.resetModules();
const { loadMarkdown, parseMarkdown } = await import("../../client/src/lib/markdown.ts");

beforeAll(() => loadMarkdown());

const SOURCES: WebSource[] = [
  { n: 1, url: "https://www.news.example.com/rivers?a=1", title: "River levels", site: "news.example.com" },
  { n: 2, url: "https://weather.example.org/", title: "Rain [live]", site: "weather.example.org" },
  { n: 4, url: "javascript:alert(1)", title: "Not a page", site: "evil.example" },
];

function parse(source: string, ...sources: [WebSource[] | undefined] | []): MdNode[] {
  const tree = parseMarkdown(source, sources.length ? sources[0] : SOURCES);
  if (!tree) throw new Error("marked is not loaded");
  return tree;
}

/** Every node of a tree, depth first. */
function all(nodes: MdNode[]): MdNode[] {
  return nodes.flatMap((n) => [n, ...("children" in n ? all(n.children) : [])]);
}

/** The citations of a tree: each superscript's links as [number, href, title]. */
function citations(nodes: MdNode[]) {
  return all(nodes)
    .filter((n) => n.kind === "element" && n.tag === "sup")
    .map((sup) =>
      all("children" in sup ? sup.children : []).flatMap((n) =>
        n.kind === "link" ? [[textOf(n.children), n.href, n.title, n.cite]] : [],
      ),
    );
}

const textOf = (nodes: MdNode[]): string =>
  all(nodes)
    .flatMap((n) => (n.kind === "text" || n.kind === "codespan" || n.kind === "code" ? [n.text] : []))
    .join("");

describe("citations in an answer", () => {
  it("become superscript links to the sources they name, with the page's title and site", () => {
    const tree = parse("Rivers rose [1]. Rain fell [1][2] and [1, 2].");
    const one = ["1", "https://www.news.example.com/rivers?a=1", "River levels — news.example.com", true];
    const two = ["2", "https://weather.example.org/", "Rain [live] — weather.example.org", true];
    expect(citations(tree)).toEqual([[one], [one], [two], [one, two]]);
    const sups = all(tree).filter((n) => n.kind === "element" && n.tag === "sup");
    expect(sups.every((s) => s.kind === "element" && s.cite)).toBe(true);
    // The words around them stay, and no bracket is left of a linked group.
    expect(textOf(tree)).toBe("Rivers rose 1. Rain fell 12 and 1 2.");
  });

  it("work inside emphasis, lists and tables", () => {
    const tree = parse("- **Flooding [2]**\n- _quiet_ [1]\n\n| a | b |\n|---|---|\n| x [2] | y |");
    expect(citations(tree).map((group) => group.map((link) => link[0]))).toEqual([["2"], ["1"], ["2"]]);
  });

  it("leave a number no source has, code, a link's text, a footnote and an escaped bracket as written", () => {
    const tree = parse(
      "Step [3] of the list. `see [1]` and\n\n```\narr[1]\n```\n\n[read [1]](https://x.example/) a[^1] \\[1] [1](https://y.example/)\n\n[^1]: note",
    );
    expect(citations(tree)).toEqual([]);
    expect(textOf(tree)).toContain("Step [3] of the list.");
    expect(textOf(tree)).toContain("see [1]");
    expect(textOf(tree)).toContain("arr[1]");
    const links = all(tree).filter((n) => n.kind === "link");
    expect(links.map((l) => l.kind === "link" && [l.href, textOf(l.children), l.cite])).toEqual([
      ["https://x.example/", "read [1]", undefined],
      ["https://y.example/", "1", undefined],
    ]);
  });

  it("never link a source whose address is not http(s), and link the others of its group", () => {
    expect(citations(parse("Bad [4]."))).toEqual([]);
    expect(textOf(parse("Bad [4]."))).toBe("Bad [4].");
    const mixed = parse("Both [1, 4].");
    expect(citations(mixed).map((group) => group.map((link) => link[0]))).toEqual([["1"]]);
    expect(textOf(mixed)).toBe("Both 1 4.");
    expect(all(mixed).some((n) => n.kind === "link" && n.href.startsWith("javascript"))).toBe(false);
  });

  it("stay text in an answer without sources, and in a text parsed after one with them", () => {
    expect(citations(parse("Rivers rose [1].", undefined))).toEqual([]);
    expect(textOf(parse("Rivers rose [1].", []))).toBe("Rivers rose [1].");
    parse("With [1].");
    expect(citations(parse("Without [1].", undefined))).toEqual([]);
  });
});

describe("an export's Sources", () => {
  const at = "2026-11-28T10:00:00.000Z";
  const markdown = (sources?: WebSource[]) =>
    transcriptMarkdown({ title: "Rivers", created_at: at, exported_at: at }, [
      { seq: 1, id: "m1", created_at: at, role: "user", content: "How are the rivers?" },
      {
        seq: 2,
        id: "m2",
        created_at: at,
        role: "agent",
        phase: "final",
        content: "They rose [1] after rain [2].",
        ...(sources ? { sources } : {}),
      },
    ]);

  it("follow the answer, one line per page: its number, title as a link, and site", () => {
    const text = markdown([
      ...SOURCES,
      { n: 5, url: "https://en.wikipedia.org/wiki/Rust_(language) x", title: "", site: "en.wikipedia.org" },
    ]);
    expect(text).toContain(
      [
        "They rose [1] after rain [2].",
        "",
        "Sources:",
        "",
        "- [1] [River levels](https://www.news.example.com/rivers?a=1) — news.example.com",
        "- [2] [Rain \\[live\\]](https://weather.example.org/) — weather.example.org",
        "- [4] Not a page — evil.example",
        "- [5] [https://en.wikipedia.org/wiki/Rust_(language) x](https://en.wikipedia.org/wiki/Rust_%28language%29%20x) — en.wikipedia.org",
      ].join("\n"),
    );
  });

  it("are not there for an answer without sources", () => {
    expect(markdown()).not.toContain("Sources:");
    expect(markdown([])).not.toContain("Sources:");
  });
});

describe("a web tool call in words", () => {
  const search = (status: string, result?: unknown, error?: string) =>
    webCallWords({ tool: "web_search", args: { query: "river  levels" }, status, result, error });
  const fetch = (status: string, args: object, result?: unknown, error?: string) =>
    webCallWords({ tool: "web_fetch", args, status, result, error });

  it("says what a search looked for and found, or why it failed", () => {
    expect(search("running")).toEqual({ title: "Searching the web for “river levels”" });
    const results = [1, 2, 3].map((n) => ({ n, title: "t", url: `https://e.example/${n}`, site: "e.example" }));
    expect(search("success", { query: "river levels", results })).toEqual({
      title: "Searched the web for “river levels”",
      count: "3 results",
    });
    expect(search("success", { query: "x", results: [] })?.count).toBe("no results");
    expect(search("error", undefined, "The search provider refused the key.")?.title).toBe(
      "Could not search the web for “river levels”: The search provider refused the key.",
    );
    expect(webCallWords({ tool: "web_search", args: { query: "a".repeat(200) }, status: "running" })?.title).toMatch(
      /^Searching the web for “a{79}…”$/,
    );
  });

  it("says which page was read and how much of it, what a find matched, or why it failed", () => {
    const page = { n: 3, url: "https://www.example.com/a", title: "Flood guide", site: "example.com" };
    expect(fetch("running", { url: "https://www.example.com/a" })).toEqual({ title: "Reading example.com" });
    expect(fetch("success", { url: page.url }, { ...page, kind: "html", total_lines: 40, text: "…" })).toEqual({
      title: "Read Flood guide · example.com",
      count: "40 lines",
    });
    const part = { ...page, kind: "html", total_lines: 420, range: { lines: "1-180" }, next: { lines: "181-360" } };
    expect(fetch("success", { url: page.url }, part)?.count).toBe("lines 1-180 of 420");
    const pdf = { ...page, kind: "pdf", total_lines: 900, total_pages: 12, range: { pages: "3-5" } };
    expect(fetch("success", { url: page.url }, pdf)?.count).toBe("pages 3-5 of 12");
    const hits = { ...page, query: "levee", total: 2, hits: [{ line: 4, text: "a levee" }] };
    expect(fetch("success", { url: page.url, find: "levee" }, hits)).toEqual({
      title: "Searched example.com for “levee”",
      count: "2 lines match",
    });
    expect(fetch("error", { url: "https://example.com/x" }, undefined, "The page answered 404.")?.title).toBe(
      "Could not read example.com: The page answered 404.",
    );
    expect(fetch("timeout", { url: "https://example.com/x", find: "a" })?.title).toBe(
      "Could not search example.com for “a”: it took too long",
    );
    expect(webCallWords({ tool: "vault_read", args: {}, status: "success" })).toBeNull();
  });
});

it("Settings → Web has an address of its own", () => {
  expect(parseRoute("/settings/web")).toEqual({ name: "settings", tab: "web" });
});
