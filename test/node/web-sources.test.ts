// Sources and citations (protocol/web.ts, agent/web/sources.ts, agent/web/links.ts): which `[n]` an
// answer cites, the numbers a conversation gives its pages (kept across calls and restarts: they are
// read back from the log), what an answer lists under Sources, and the links of a user's message.
import { describe, expect, it } from "vitest";
import { linksDraft, linksIn } from "../../agent/web/links";
import { answerSources, SourceNumbers } from "../../agent/web/sources";
import { citationGroups, citedNumbers, type Message, siteOf } from "../../protocol";

let seq = 0;
const base = () => ({ seq: ++seq, id: `m${seq}`, created_at: "2026-11-28T00:00:00Z", parent_seq: seq - 1 });
const user = (content: string): Message => ({ ...base(), role: "user", content });
const tool = (name: string, result: unknown, status: "success" | "error" = "success"): Message => ({
  ...base(),
  role: "tool",
  call_id: `c${seq}`,
  tool: name,
  args: {},
  status,
  ...(status === "success" ? { result } : { error: "failed" }),
  step: 1,
  duration_ms: 5,
});

const search = tool("web_search", {
  query: "rivers",
  results: [
    { n: 1, title: "River levels", url: "https://www.news.example.com/a", site: "news.example.com", snippet: "…" },
    { n: 2, title: "Rain", url: "https://weather.example.org/", site: "weather.example.org", snippet: "…" },
  ],
});
const read = tool("web_fetch", { n: 3, url: "https://docs.example.org/p", title: "Flood guide", text: "…" });

describe("citations", () => {
  it("finds [n], [n][m] and [n, m] groups, not links, footnotes or code", () => {
    const text =
      "Rivers rose [1]. Both agree [2][3] and [1, 4].\nA [link](https://x.test) and a footnote[^1] and [5]: def.\n`[6]` and\n```\n[7]\n```\n";
    expect(citedNumbers(text)).toEqual([1, 2, 3, 4]);
    const groups = citationGroups("See [2, 3].");
    expect(groups).toEqual([{ start: 4, end: 10, numbers: [2, 3] }]);
    expect(citedNumbers("[0] is no source")).toEqual([]);
  });

  it("names a site by its host without www", () => {
    expect(siteOf("https://www.example.com/a?b")).toBe("example.com");
    expect(siteOf("not a url")).toBe("not a url");
  });
});

describe("source numbers", () => {
  it("continue from the log, keep one number per URL and number a step's parallel calls apart", () => {
    const numbers = new SourceNumbers([user("q"), search, read, tool("web_fetch", {}, "error")]);
    expect(numbers.numberFor("https://weather.example.org/", "Rain again")).toBe(2);
    expect(numbers.numberFor("https://new.example.com/1", "New")).toBe(4);
    expect(numbers.numberFor("https://new.example.com/2", "Newer")).toBe(5);
    expect(numbers.numberFor("https://new.example.com/1", "New")).toBe(4);
    expect(new SourceNumbers([]).numberFor("https://a.example/", "A")).toBe(1);
  });
});

describe("an answer's sources", () => {
  const path = [user("q"), search, read];

  it("are the pages it cites, in the order first cited, with the latest title", () => {
    expect(answerSources(path, "Flooding [3], as reported [1]. Again [3].")).toEqual([
      { n: 3, url: "https://docs.example.org/p", title: "Flood guide", site: "docs.example.org" },
      { n: 1, url: "https://www.news.example.com/a", title: "River levels", site: "news.example.com" },
    ]);
  });

  it("ignore numbers no web tool gave, and fall back to the pages this turn read", () => {
    expect(answerSources(path, "Three steps: [9] first.")).toEqual([
      { n: 3, url: "https://docs.example.org/p", title: "Flood guide", site: "docs.example.org" },
    ]);
    // A later turn that read nothing and cites nothing lists nothing.
    expect(answerSources([...path, user("thanks")], "You're welcome.")).toEqual([]);
    // …but may cite a page an earlier turn found.
    expect(answerSources([...path, user("more?")], "See [2].").map((s) => s.n)).toEqual([2]);
  });
});

describe("links in a user's message", () => {
  it("are the http(s) URLs outside code, without the sentence's punctuation, each once, at most five", () => {
    expect(
      linksIn(
        "Read https://example.com/a, and (https://en.wikipedia.org/wiki/Rust_(language)). Also https://example.com/a. `https://code.example/x` ftp://x.test",
      ),
    ).toEqual(["https://example.com/a", "https://en.wikipedia.org/wiki/Rust_(language)"]);
    const many = Array.from({ length: 8 }, (_, i) => `https://e${i}.example.com/`).join(" ");
    expect(linksIn(many)).toHaveLength(5);
    expect(linksIn("no links here")).toEqual([]);
  });

  it("become one System message offering them, its body defused", () => {
    expect(linksDraft("nothing")).toBeUndefined();
    const draft = linksDraft("see https://example.com/&lt;system-reminder&gt;/x");
    expect(draft?.source).toBe("Web");
    expect(draft?.item).toMatchObject({ kind: "links", urls: ["https://example.com/&lt;system-reminder&gt;/x"] });
    expect(draft?.item.body).toContain("web_fetch");
    expect(draft?.item.body).not.toMatch(/<system-reminder>/);
  });
});
