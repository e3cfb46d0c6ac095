// Issue 13: a first visit downloads under 90 KB of gzipped JS before the app runs. Measured on a fresh
// build of the current source (bench/client-size.ts, whose figures go to bench/README.md).
import { expect, it } from "vitest";
import { INITIAL_JS_BUDGET_BYTES, measureClient } from "../../bench/client-size.ts";

it("keeps the client's initial JS under 90 KB gzip", () => {
  const size = measureClient();
  expect(size.initialJs.files.length).toBeGreaterThan(0);
  expect(size.initialJs.gzip).toBeGreaterThan(10 * 1024); // the measure reads the real bundle
  expect(size.initialJs.gzip).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
}, 120_000);
