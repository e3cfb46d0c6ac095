// `npm run check` (and, with --build, the first half of `npm test`): the static checks run side by side
// rather than one after another — biome, the three TypeScript programs, the file mentions, the sizes
// of durable-objects/ (check-sizes.ts) and the Worker bundle (`wrangler deploy --dry-run`). Each is a
// process of its own that mostly waits on one core at a time, so on a 2-core machine together they
// take about the longest one's time, not the sum.
// Each step's output is printed as one block when it ends, with its time; the exit code is 1 when any
// step failed (every step still runs to its end, so one run names every failure).
//
//   node scripts/check.ts [--build]
//
// --build  `npm run build` too: the generated prompt and subscriber modules first (the type checks read
//          them), then the client's vite build alongside the checks, the Worker bundle after it (it
//          bundles client/dist as the static assets).
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "node_modules/.bin");
const node = process.execPath;

interface Step {
  name: string;
  command: string;
  args: string[];
}

const bin = (name: string, ...args: string[]): Step => ({
  name: `${name} ${args.join(" ")}`,
  command: path.join(BIN, name),
  args,
});
const script = (file: string, ...args: string[]): Step => ({
  name: `node ${file}${args.length ? ` ${args.join(" ")}` : ""}`,
  command: node,
  args: [file, ...args],
});

interface Outcome {
  step: Step;
  ok: boolean;
  ms: number;
}

function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(step.command, step.args, {
      cwd: ROOT,
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ""}`, FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (b: Buffer) => {
      output += b.toString("utf8");
    });
    child.stderr.on("data", (b: Buffer) => {
      output += b.toString("utf8");
    });
    const done = (ok: boolean, why = "") => {
      const ms = Date.now() - started;
      const head = `${ok ? "✓" : "✗"} ${step.name} (${(ms / 1000).toFixed(1)} s)${why}`;
      process.stdout.write(`${head}\n${ok ? "" : output.trimEnd().replace(/^/gm, "  ")}${ok ? "" : "\n"}`);
      resolve({ step, ok, ms });
    };
    child.once("error", (error) => done(false, `: ${error.message}`));
    child.once("close", (code, signal) => done(code === 0, code === 0 ? "" : `: exit ${code ?? signal}`));
  });
}

/** Runs the steps one after another, stopping at the first that fails. */
async function inOrder(steps: Step[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const outcome = await run(step);
    outcomes.push(outcome);
    if (!outcome.ok) break;
  }
  return outcomes;
}

const build = process.argv.includes("--build");
const started = Date.now();
const outcomes: Outcome[] = [];

if (build) {
  outcomes.push(...(await inOrder([script("scripts/build-prompts.ts"), script("scripts/build-subscribers.ts")])));
}
if (outcomes.every((o) => o.ok)) {
  // The metafile names what the bundle was made from: the e2e apps run this bundle while it is newer (test/e2e/app.ts).
  const bundle = bin("wrangler", "deploy", "--dry-run", "--outdir", ".wrangler/dry-run", "--metafile");
  const lanes: Promise<Outcome[]>[] = [
    // The slowest first, so they start first.
    build ? inOrder([bin("vite", "build", "--config", "client/vite.config.ts"), bundle]) : inOrder([bundle]),
    inOrder([bin("tsc", "-p", "tsconfig.node.json")]),
    inOrder([bin("tsc", "-p", ".")]),
    inOrder([bin("tsc", "-p", "client")]),
    inOrder([bin("biome", "check", ".")]),
    inOrder([script("scripts/check-file-mentions.ts"), script("scripts/check-sizes.ts")]),
  ];
  for (const lane of await Promise.all(lanes)) outcomes.push(...lane);
}

const failed = outcomes.filter((o) => !o.ok);
const total = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length) {
  console.error(
    `${failed.length} of ${outcomes.length} steps failed in ${total} s: ${failed.map((o) => o.step.name).join(", ")}`,
  );
  process.exit(1);
}
console.log(`${build ? "build and checks" : "checks"}: ${outcomes.length} steps in ${total} s`);
