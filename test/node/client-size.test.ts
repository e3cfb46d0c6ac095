// Issue 13: a first visit downloads under 90 KB of gzipped JS before the app runs. Measured on a fresh
// build of the current source (bench/client-size.ts, whose figures go to bench/README.md).
import { expect, it } from "vitest";
import { INITIAL_JS_BUDGET_BYTES, measureClient } from "../../bench/client-size.ts";

it("keeps the client's initial JS under 90 KB gzip, highlight.js and KaTeX in lazy chunks", () => {
  const size = measureClient();
  expect(size.initialJs.files.length).toBeGreaterThan(0);
  expect(size.initialJs.gzip).toBeGreaterThan(10 * 1024); // the measure reads the real bundle
  expect(size.initialJs.gzip).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
  // Issue 26: highlight.js and KaTeX are chunks of their own, not in the initial JS.
  const chunk = (name: string) => size.chunks.find((c) => c.name === name);
  expect(chunk("highlight")?.jsGzip).toBeGreaterThan(20 * 1024);
  expect(chunk("katex")?.jsGzip).toBeGreaterThan(50 * 1024);
  expect(chunk("katex")?.cssGzip).toBeGreaterThan(0);
  expect(chunk("katex")?.fonts?.woff2Files).toBeGreaterThan(0);
}, 120_000);
