// `npm run conformance`: the official MCP conformance suite, client mode, against the real Worker on
// loopback (`wrangler dev` with a fake model, as the e2e tests start it), every lane; prints the score per
// lane and each failing scenario's failed checks, and exits 1 when a failure is not in baseline.yml or a
// scenario it lists now passes. `-- --lane auth` runs only the lanes whose name contains "auth".
import { parseArgs } from "node:util";
import { fakeModelEnv, startApp } from "../e2e/app.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { baselineScenarios, formatRun, LANES, runConformance } from "./suite.ts";

const { values } = parseArgs({ options: { lane: { type: "string" } } });
const lanes = LANES.filter((l) => !values.lane || l.name.includes(values.lane));

const llm = await startFakeOpenAI();
const app = await startApp({ env: fakeModelEnv(llm), direct: true });
try {
  const started = performance.now();
  const run = await runConformance({ appUrl: app.url, llmUrl: llm.url, lanes });
  console.log(formatRun(run, await baselineScenarios()));
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (run.unexpected.length || run.stale.length || !run.cliAgreed) {
    if (run.unexpected.length) console.log(`Failing and not in the baseline: ${run.unexpected.join(", ")}`);
    if (!run.cliAgreed) console.log(run.output);
    process.exitCode = 1;
  }
} finally {
  await app.stop();
  await llm.close();
}
