// Runs the official MCP conformance suite in client mode against a running app (test/conformance/driver.ts
// is the client command it starts per scenario), with the baseline of scenarios expected to fail
// (baseline.yml), and scores it per lane. Used by `npm run conformance` (run.ts) and by the e2e test
// (test/e2e/conformance.test.ts). The suite's CLI runs the scenarios of one `--suite` side by side; the
// lanes' suites run side by side too.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCommand } from "../support/run-command.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const DRIVER = path.join(import.meta.dirname, "driver.ts");
export const BASELINE = path.join(import.meta.dirname, "baseline.yml");
/** Per scenario; the driver gives up well before (its turn waits 20 s at most). */
const SCENARIO_TIMEOUT_MS = 60_000;

/** A lane: the suite's scenarios of one spec revision or kind, by the CLI `--suite` that runs them. */
export interface Lane {
  name: string;
  suite: "core" | "backcompat" | "draft" | "extensions";
  /** Which of the suite's scenarios are this lane's (the CLI's "core" holds the 2025-11-25 auth ones too). */
  holds: (scenario: string) => boolean;
}

export const LANES: Lane[] = [
  { name: "core (2025-11-25)", suite: "core", holds: (s) => !s.startsWith("auth/") },
  { name: "auth (2025-11-25)", suite: "core", holds: (s) => s.startsWith("auth/") },
  { name: "back-compat (2025-03-26)", suite: "backcompat", holds: () => true },
  { name: "draft", suite: "draft", holds: () => true },
  // Client credentials and cross-app access: a machine's own grant and an enterprise IdP's token
  // exchange, with no user to approve; the Worker acts for a signed-in user only (baseline.yml).
  { name: "extension", suite: "extensions", holds: () => true },
];

export interface CheckResult {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";
  description: string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  /** No check failed or warned: the suite's own rule for a passing scenario. */
  passed: boolean;
  /** The checks that failed or warned. */
  problems: CheckResult[];
  /** The driver's last line on stderr (why it stopped, when it did). */
  driver: string;
}

export interface LaneScore {
  lane: string;
  passed: number;
  total: number;
  failing: ScenarioResult[];
}

export interface ConformanceRun {
  lanes: LaneScore[];
  /** Failing scenarios the baseline does not list, and listed ones that passed (both fail the run). */
  unexpected: string[];
  stale: string[];
  /** The CLI's exit codes were all 0 (for the suites whose every lane ran): its own baseline check agrees. */
  cliAgreed: boolean;
  /** The CLI's output per suite, for a failure's evidence. */
  output: string;
}

/** The scenarios baseline.yml lists under `client:` (one `- name  # reason` a line). */
export async function baselineScenarios(file = BASELINE): Promise<Map<string, string>> {
  const listed = new Map<string, string>();
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const entry = /^\s+-\s+([^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (entry?.[1]) listed.set(entry[1].replace(/^["']|["']$/g, ""), entry[2]?.trim() ?? "");
  }
  return listed;
}

/** Every scenario's checks under a CLI output folder (`<scenario>-<timestamp>/checks.json`, auth/ nested). */
async function readResults(dir: string): Promise<Map<string, { checks: CheckResult[]; stderr: string }>> {
  const results = new Map<string, { checks: CheckResult[]; stderr: string }>();
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith("checks.json"));
  for (const file of files) {
    const folder = path.dirname(file);
    const scenario = folder.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(await readFile(path.join(dir, file), "utf8")) as CheckResult[];
    const stderr = await readFile(path.join(dir, folder, "stderr.txt"), "utf8").catch(() => "");
    results.set(scenario, { checks, stderr });
  }
  return results;
}

function scenarioResult(scenario: string, checks: CheckResult[], stderr: string): ScenarioResult {
  const problems = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  const lines = stderr.split("\n").filter((l) => l.startsWith("[driver]"));
  return { scenario, passed: problems.length === 0, problems, driver: lines.at(-1)?.slice(9) ?? "" };
}

/**
 * Runs `lanes` against the app at `appUrl` whose model is the fake at `llmUrl`, each suite once with the
 * baseline. The scores, and what the baseline did not expect.
 */
export async function runConformance(opts: {
  appUrl: string;
  llmUrl: string;
  lanes?: Lane[];
  baseline?: string;
}): Promise<ConformanceRun> {
  const lanes = opts.lanes ?? LANES;
  const baseline = opts.baseline ?? BASELINE;
  const out = await mkdtemp(path.join(tmpdir(), "oracle-conformance-"));
  try {
    const suites = [...new Set(lanes.map((l) => l.suite))];
    const env = { ...process.env, CONFORMANCE_APP_URL: opts.appUrl, CONFORMANCE_LLM_URL: opts.llmUrl };
    const runs = await Promise.all(
      suites.map(async (suite) => {
        const args = [CLI, "client", "--suite", suite, "--command", `${process.execPath} ${DRIVER}`];
        args.push("--expected-failures", baseline, "--timeout", String(SCENARIO_TIMEOUT_MS));
        args.push("--output-dir", path.join(out, suite));
        return { suite, ...(await runCommand(process.execPath, args, { env, cwd: out })) };
      }),
    );
    const results = new Map<string, ScenarioResult & { suite: string }>();
    for (const { suite } of runs)
      for (const [scenario, r] of await readResults(path.join(out, suite)).catch(() => new Map()))
        results.set(scenario, { suite, ...scenarioResult(scenario, r.checks, r.stderr) });
    const expected = await baselineScenarios(baseline);
    // A suite may hold scenarios of lanes not asked for (the CLI's "core" holds the auth lane's).
    const ran = [...results.values()].filter((r) => lanes.some((l) => l.suite === r.suite && l.holds(r.scenario)));
    return {
      lanes: lanes.map((lane) => {
        const mine = ran.filter((r) => r.suite === lane.suite && lane.holds(r.scenario));
        const failing = mine.filter((r) => !r.passed);
        return { lane: lane.name, passed: mine.length - failing.length, total: mine.length, failing };
      }),
      unexpected: ran.filter((r) => !r.passed && !expected.has(r.scenario)).map((r) => r.scenario),
      stale: ran.filter((r) => r.passed && expected.has(r.scenario)).map((r) => r.scenario),
      // Only where every lane of the suite ran: the CLI judges the whole suite against the baseline.
      cliAgreed: runs.every((r) => r.status === 0 || LANES.some((l) => l.suite === r.suite && !lanes.includes(l))),
      output: runs.map((r) => `=== --suite ${r.suite} (exit ${r.status ?? r.error})\n${r.output}`).join("\n"),
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The scores as a table, then each failing scenario: its failed checks and where the driver stopped. */
export function formatRun(run: ConformanceRun, baseline: Map<string, string>): string {
  const lines = run.lanes.map((l) => `${l.lane.padEnd(26)} ${`${l.passed}/${l.total}`.padStart(5)}`);
  for (const lane of run.lanes)
    for (const r of lane.failing) {
      const reason = baseline.get(r.scenario);
      lines.push("", `✗ ${r.scenario}${reason === undefined ? " (NOT in the baseline)" : ` (baseline: ${reason})`}`);
      for (const c of r.problems) lines.push(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
      if (r.driver) lines.push(`    driver: ${r.driver}`);
    }
  if (run.stale.length) lines.push("", `Passing but listed in the baseline (remove them): ${run.stale.join(", ")}`);
  return lines.join("\n");
}
