// Voice's words (client/src/lib/speech-text.ts) without a browser: what "Read aloud" reads of an
// answer's Markdown, the pieces it is read in, dictated words after what is typed, and a recognition
// error in words. The buttons themselves: test/e2e/settings-voice.test.ts.
import { beforeAll, expect, it, vi } from "vitest";

// A copy of the modules of this file's own (the node project shares modules between files; see markdown.test.ts).
vi.resetModules();
const { loadMarkdown, parseMarkdown } = await import("../../client/src/lib/markdown.ts");
const { dictationProblem, speechChunks, speechText, withDictation } = await import(
  "../../client/src/lib/speech-text.ts"
);

beforeAll(() => loadMarkdown());

const read = (markdown: string) => speechText(parseMarkdown(markdown), markdown);

it("reads an answer's words, not its Markdown", () => {
  expect(read("**Milk** and `eggs` are on the [list](https://example.com/list).\n\n- Buy milk\n- Buy eggs")).toBe(
    "Milk and eggs are on the list. Buy milk. Buy eggs.",
  );
  expect(read("## Plan\nFirst _this_, then that")).toBe("Plan. First this, then that.");
  expect(read("Run this:\n\n```sh\nrm -rf /tmp/x\n```\n\nDone!")).toBe("Run this: A code block. Done!");
  expect(read("| Item | Price |\n| --- | --- |\n| Tea | 3.50 |")).toBe("Item, Price. Tea, 3.50.");
  expect(read("Costs $5 and $10 in all.")).toBe("Costs $5 and $10 in all.");
  // Before marked is there: the text as written.
  expect(speechText(null, "  plain\ntext ")).toBe("plain text");
});

it("does not read an answer's citations of its sources, in prose or in code", () => {
  expect(read("The river rose two metres [1]. Schools closed [2][3], and roads too [1, 4].")).toBe(
    "The river rose two metres. Schools closed, and roads too.",
  );
  const sources = [{ n: 1, url: "https://example.org/a", title: "A", site: "example.org" }];
  expect(speechText(parseMarkdown("It rose [1].", sources), "It rose [1].")).toBe("It rose.");
  // Before marked is there, the same; a link's text and code keep their brackets.
  expect(speechText(null, "It rose [1].")).toBe("It rose.");
  expect(read("See `arr[1]` and [2](https://example.org/2).")).toBe("See arr[1] and 2.");
});

it("cuts a long text between sentences, else between words, and loses nothing", () => {
  const text = `${"One short sentence. ".repeat(12)}A last one with 3.5 litres.`.trim();
  const chunks = speechChunks(text, 100);
  expect(chunks.length).toBeGreaterThan(2);
  for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(100);
  expect(chunks.join(" ")).toBe(text);
  expect(chunks.at(-1)).toContain("3.5 litres.");
  const words = "word ".repeat(60).trim();
  expect(speechChunks(words, 50).join(" ")).toBe(words);
  expect(speechChunks("", 50)).toEqual([]);
});

it("puts dictated words after what was typed, with one space", () => {
  expect(withDictation("", " buy milk ")).toBe("buy milk");
  expect(withDictation("Note:", "buy  milk")).toBe("Note: buy milk");
  expect(withDictation("Note: ", "buy milk")).toBe("Note: buy milk");
  expect(withDictation("Note:", "  ")).toBe("Note:");
});

it("says a recognition error in words, and nothing for the app's own stop", () => {
  expect(dictationProblem("not-allowed")).toMatch(/microphone.*denied/);
  expect(dictationProblem("no-speech")).toMatch(/No speech/);
  expect(dictationProblem("aborted")).toBeNull();
  expect(dictationProblem("something-new")).toContain("something-new");
});
