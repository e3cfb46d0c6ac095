// The official MCP conformance suite (@modelcontextprotocol/conformance), client mode, every lane, against
// the real Worker on the shared fake-model app: the suite starts each scenario's MCP server and
// authorization server, and test/conformance/user.ts plays the user (signs up, adds the server, connects
// it, runs a turn that calls its tool). Every scenario must pass but those test/conformance/baseline.yml
// lists with a reason, and a listed one that passes fails too (the fix landed: take it out). A scenario
// that fails only on how many milliseconds its client took (sse-retry's reconnection, on a loaded
// machine) is shown in the report, not failed: a test asserts no timing.
import { expect, it } from "vitest";
import { baselineScenarios, formatRun, runConformance, verdict } from "../conformance/suite.ts";
import { useSharedFakeModelApp } from "./harness.ts";

const live = useSharedFakeModelApp({ browser: false });

it("gives a reason for every scenario the conformance baseline lists", async () => {
  const listed = await baselineScenarios();
  expect([...listed].filter(([, reason]) => !reason).map(([scenario]) => scenario)).toEqual([]);
});

it("passes the MCP conformance suite's client scenarios but those the baseline lists, which still fail", async () => {
  const run = await runConformance({ appUrl: live.app.url, llmUrl: live.llm.url });
  const report = formatRun(run, await baselineScenarios());
  expect(
    run.lanes.filter((lane) => lane.total === 0).map((lane) => lane.lane),
    report,
  ).toEqual([]);
  expect(verdict(run), report).toEqual({ unexpected: [], stale: [] });
  // The suite's own baseline check (its exit code) reads its results as suite.ts does.
  expect(run.cliAgreed, run.output).toBe(true);
});
