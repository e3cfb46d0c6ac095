// The command the MCP conformance suite runs per client scenario (`--command`): the scenario's server URL
// is its last argument, the scenario's name is in MCP_CONFORMANCE_SCENARIO and its context (e.g. a
// pre-registered client) in MCP_CONFORMANCE_CONTEXT. It hands them to the run that started the suite
// (test/conformance/suite.ts, at CONFORMANCE_DRIVER_URL), where test/conformance/user.ts plays the user on
// the real Worker, writes what the user did to stderr (the suite keeps it with the scenario's results),
// and exits 1 where the user got stuck. Plain JavaScript importing nothing, and the user played in the
// run's own process: a process per scenario that loaded zod and stripped TypeScript cost 0.6 s of CPU
// where this costs 0.1 s.
const [serverUrl] = process.argv.slice(-1);
const res = await fetch(process.env.CONFORMANCE_DRIVER_URL ?? "", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    scenario: process.env.MCP_CONFORMANCE_SCENARIO,
    serverUrl,
    context: process.env.MCP_CONFORMANCE_CONTEXT,
  }),
});
const { ok, log } = await res.json();
for (const line of log) process.stderr.write(`[driver] ${line}\n`);
process.exitCode = ok ? 0 : 1;
