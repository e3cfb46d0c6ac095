// Search snippets (client/src/lib/snippet.ts): the «…» hits the server marks become highlighted parts.
import { expect, it } from "vitest";
import { snippetParts } from "../../client/src/lib/snippet.ts";

it("splits a snippet into text and its «hits»", () => {
  expect(snippetParts("…the «quick» brown «fox» jumps…")).toEqual([
    { text: "…the ", hit: false },
    { text: "quick", hit: true },
    { text: " brown ", hit: false },
    { text: "fox", hit: true },
    { text: " jumps…", hit: false },
  ]);
  expect(snippetParts("«all»")).toEqual([{ text: "all", hit: true }]);
});

it("keeps stray markers and markup as text", () => {
  expect(snippetParts("a « b » c « d")).toEqual([
    { text: "a ", hit: false },
    { text: " b ", hit: true },
    { text: " c « d", hit: false },
  ]);
  expect(snippetParts("x » y")).toEqual([{ text: "x » y", hit: false }]);
  expect(snippetParts("«<b>x</b>»")).toEqual([{ text: "<b>x</b>", hit: true }]);
  expect(snippetParts("")).toEqual([]);
  expect(snippetParts("«»")).toEqual([]);
});
