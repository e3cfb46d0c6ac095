// Seeds 000-003's success criteria as properties of the real agent loop, checked on every generated
// run: random limits, trees, model behaviour, tool faults, questions and Stop (script.ts). The run
// count is PROPERTY_RUNS (small in `npm test`, large in `npm run test:properties`).
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { violations } from "./invariants";
import { REGRESSIONS } from "./regressions";
import { runArb } from "./script";
import { playRun } from "./scripted-run";

const runs = Number((env as unknown as { PROPERTY_RUNS?: string }).PROPERTY_RUNS ?? 30);
const seed = (env as unknown as { PROPERTY_SEED?: string }).PROPERTY_SEED;

describe("the agent loop under generated runs", () => {
  it(`keeps every success criterion on ${runs} generated runs`, { timeout: 60_000 + runs * 2_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(runArb, async (script) => {
        const broken = violations(await playRun(script));
        if (broken.length) throw new Error(broken.join("\n"));
      }),
      { numRuns: runs, ...(seed ? { seed: Number(seed) } : {}) },
    );
  });

  for (const [name, script] of Object.entries(REGRESSIONS)) {
    it(`regression: ${name}`, async () => {
      expect(violations(await playRun(script))).toEqual([]);
    });
  }
});
