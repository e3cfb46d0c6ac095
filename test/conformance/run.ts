// `npm run conformance`: the official MCP conformance suite, client mode, every lane, against the real
// Worker on loopback (`wrangler dev` with a fake model, as the e2e tests start it); prints the score per
// lane and each failing scenario's failed checks, and exits 1 when a failure is not in baseline.yml (but
// for a timed check's alone) or a scenario it lists now passes.
import { fakeModelEnv, startApp } from "../e2e/app.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { CONFORMANCE_APP_VARS } from "./app-vars.ts";
import { baselineScenarios, formatRun, runConformance, verdict } from "./suite.ts";

const llm = await startFakeOpenAI();
const app = await startApp({ env: fakeModelEnv(llm, CONFORMANCE_APP_VARS), direct: true });
try {
  const started = performance.now();
  const run = await runConformance({ appUrl: app.url, llmUrl: llm.url });
  console.log(formatRun(run, await baselineScenarios()));
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { unexpected, stale } = verdict(run);
  if (unexpected.length) console.log(`Failing and not in the baseline: ${unexpected.join(", ")}`);
  if (!run.cliAgreed) console.log(`The suite's own baseline check disagrees:\n${run.output}`);
  if (unexpected.length || stale.length || !run.cliAgreed) process.exitCode = 1;
} finally {
  await app.stop();
  await llm.close();
}
