// D1 on the hot path of a turn (rows of `npm run bench`): runs test/workers/d1-hot-path.bench-test.ts
// inside workerd (`npx vitest run --config bench/vitest.d1.config.ts`), parses its BENCH_RESULT line
// and makes the table. With a baseline commit, the same files are copied into a detached worktree of
// that commit ($TMPDIR/oracle-bench-baseline, removed afterwards), measured there too, and the table
// shows before (the commit) and after (this working tree) side by side.
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const TEST_FILE = "test/workers/d1-hot-path.bench-test.ts";
const PROBE_FILE = "test/workers/d1-probe.ts";
const CONFIG = "bench/vitest.d1.config.ts";
// Not under node_modules/: Node strips the types of no .ts file there, so the build scripts could not run.
const WORKTREE = join(tmpdir(), "oracle-bench-baseline");

interface Range {
  median: number;
  min: number;
  max: number;
}
interface Counts {
  turns: number;
  steps: number;
  messages: Range;
  during: Range;
  after: Range;
  tool: Range;
  objectDuring: Range;
  labels: Record<string, number>;
  labelsAfter: Record<string, number>;
}
interface Timed {
  delayMs: number;
  turns: number;
  completeMs: Range;
  userMessageMs: Range;
  during: Range;
}
/** What the bench test prints (see its `result`). */
export interface D1Result {
  turn14: Counts;
  turn1: Counts;
  perExtraToolStep: number;
  persistCallMs: Range;
  userMessage: { turns: number; ms: Range };
  userMessageD1: Range;
  turn10: { plain: Timed; delayed: Timed };
}

/** Runs the bench test in `cwd` (a checkout with node_modules) and returns its figures. */
function measure(cwd: string): Promise<D1Result> {
  return new Promise((done, fail) => {
    const child = spawn("npx", ["vitest", "run", "--config", CONFIG], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("error", fail);
    child.on("close", (code) => {
      const line = out.match(/BENCH_RESULT (\{.*\})/)?.[1];
      if (code !== 0 || !line) return fail(new Error(`D1 bench in ${cwd} failed (exit ${code}):\n${out}`));
      done(JSON.parse(line) as D1Result);
    });
  });
}

function git(args: string[], check = true): string {
  const r = spawnSync("git", args, { encoding: "utf8" });
  if (check && r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Unlinks the symlinks we made (so nothing can follow them), then removes the worktree. */
function removeWorktree(): void {
  for (const link of ["node_modules", "client/dist"]) {
    const path = join(WORKTREE, link);
    try {
      if (lstatSync(path).isSymbolicLink()) unlinkSync(path);
    } catch {
      // not there
    }
  }
  git(["worktree", "remove", "--force", WORKTREE], false);
  rmSync(WORKTREE, { recursive: true, force: true });
  git(["worktree", "prune"], false);
}

/** A detached worktree of `commit` ready to run the bench: node_modules, this bench's files, generated code, assets. */
function prepareWorktree(commit: string): void {
  removeWorktree();
  git(["worktree", "add", "--detach", WORKTREE, commit]);
  symlinkSync(resolve("node_modules"), join(WORKTREE, "node_modules"), "dir");
  for (const file of [TEST_FILE, PROBE_FILE, CONFIG]) copyFileSync(file, join(WORKTREE, file));
  // The generated modules of `npm run build` (checked in, but regenerated as the build would).
  for (const script of ["scripts/build-prompts.ts", "scripts/build-subscribers.ts"]) {
    if (!existsSync(join(WORKTREE, script))) continue;
    const r = spawnSync(process.execPath, [script], { cwd: WORKTREE, stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) throw new Error(`${script} failed in the baseline worktree`);
  }
  // wrangler.toml serves client/dist as assets; the bench never requests them, so any build will do.
  if (existsSync("client/dist")) symlinkSync(resolve("client/dist"), join(WORKTREE, "client/dist"), "dir");
  else {
    mkdirSync(join(WORKTREE, "client/dist"), { recursive: true });
    writeFileSync(join(WORKTREE, "client/dist/index.html"), "<!doctype html>\n");
  }
}

// ---- the table -----------------------------------------------------------------------------------

type Unit = "count" | "ms";
interface Row {
  measure: string;
  unit: Unit;
  value: (r: D1Result) => number;
  /** Shown in the single-run table's last column. */
  detail?: (r: D1Result) => string;
}

/** A figure; "—" when there is none (NaN comes back from JSON as null, e.g. no call of that kind). */
const show = (n: number | null, unit: Unit) =>
  n === null || !Number.isFinite(n)
    ? "—"
    : unit === "ms"
      ? `${n.toFixed(0)} ms`
      : Number.isInteger(n)
        ? String(n)
        : n.toFixed(2);
const spread = (x: Range, unit: Unit) =>
  x.min === x.max ? "all equal" : `${show(x.min, unit)} – ${show(x.max, unit)}`;
const ratio = (x: number | null, y: number | null) =>
  x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)
    ? "—"
    : x === 0
      ? y === 0
        ? "="
        : "—"
      : `${(y / x).toFixed(2)}×`;

const rows: Row[] = [
  {
    measure: "D1 round trips, 14-step turn (13 `vault_list` steps + answer), chat frame → response_complete",
    unit: "count",
    value: (r) => r.turn14.during.median,
    detail: (r) => `median of ${r.turn14.turns} turns, ${spread(r.turn14.during, "count")}`,
  },
  {
    measure: "… of which the tool's own reads (`vault_list`: SELECT notes)",
    unit: "count",
    value: (r) => r.turn14.tool.median,
  },
  {
    measure: "… of which the object's own (total − tool's)",
    unit: "count",
    value: (r) => r.turn14.objectDuring.median,
  },
  {
    measure: "D1 round trips per step of the 14-step turn (total / 14)",
    unit: "count",
    value: (r) => r.turn14.during.median / 14,
  },
  {
    measure: "object's own D1 round trips per step of the 14-step turn ((total − tool's) / 14)",
    unit: "count",
    value: (r) => r.turn14.objectDuring.median / 14,
  },
  {
    measure: "D1 round trips, 1-step turn (answer only), chat frame → response_complete",
    unit: "count",
    value: (r) => r.turn1.during.median,
    detail: (r) => `median of ${r.turn1.turns} turns, ${spread(r.turn1.during, "count")}`,
  },
  {
    measure: "object's own D1 round trips per added tool step ((14-step − 1-step, tool's excluded) / 13)",
    unit: "count",
    value: (r) => r.perExtraToolStep,
  },
  {
    measure: "D1 round trips after response_complete until the object is quiet (14-step turn)",
    unit: "count",
    value: (r) => r.turn14.after.median,
    detail: (r) => `1-step turn: ${r.turn1.after.median}`,
  },
  {
    measure: "messages persisted (`message` frames) per 14-step turn",
    unit: "count",
    value: (r) => r.turn14.messages.median,
  },
  {
    measure: "chat frame → the user's `message` frame, 1-step turns",
    unit: "ms",
    value: (r) => r.userMessage.ms.median,
    detail: (r) => `median of ${r.userMessage.turns}, ${spread(r.userMessage.ms, "ms")}`,
  },
  {
    measure: "D1 round trips started before the user's `message` frame arrives",
    unit: "count",
    value: (r) => r.userMessageD1.median,
  },
  {
    measure: "duration of one D1 call that writes the `messages` table (local D1; — when no D1 call does)",
    unit: "ms",
    value: (r) => r.persistCallMs.median,
    detail: (r) =>
      Number.isFinite(r.persistCallMs.median ?? Number.NaN)
        ? `median over the 14-step turns, ${spread(r.persistCallMs, "ms")}; 1 ms clock`
        : "no such call",
  },
  {
    measure: "10-step turn, chat frame → response_complete, local D1",
    unit: "ms",
    value: (r) => r.turn10.plain.completeMs.median,
    detail: (r) => `median of ${r.turn10.plain.turns}, ${spread(r.turn10.plain.completeMs, "ms")}`,
  },
  {
    measure: "10-step turn, chat frame → response_complete, every D1 call delayed 50 ms",
    unit: "ms",
    value: (r) => r.turn10.delayed.completeMs.median,
    detail: (r) => `median of ${r.turn10.delayed.turns}, ${spread(r.turn10.delayed.completeMs, "ms")}`,
  },
  {
    measure: "… D1 round trips on the user's path of a 10-step turn ((delayed − local) / 50 ms)",
    unit: "count",
    value: (r) => (r.turn10.delayed.completeMs.median - r.turn10.plain.completeMs.median) / 50,
    detail: (r) => `of ${r.turn10.delayed.during.median} D1 calls in the turn`,
  },
  {
    measure: "… of which the object's own (the 9 tool steps each wait on one `vault_list` read of their own)",
    unit: "count",
    value: (r) => (r.turn10.delayed.completeMs.median - r.turn10.plain.completeMs.median) / 50 - 9,
  },
  {
    measure: "chat frame → the user's `message` frame, every D1 call delayed 50 ms (10-step turns)",
    unit: "ms",
    value: (r) => r.turn10.delayed.userMessageMs.median,
    detail: (r) =>
      `median of ${r.turn10.delayed.turns}, ${spread(r.turn10.delayed.userMessageMs, "ms")}; local D1: ${show(r.turn10.plain.userMessageMs.median, "ms")}`,
  },
];

const byLabel = (labels: Record<string, number>) =>
  Object.entries(labels)
    .map(([label, n]) => `\`${label}\` ×${n}`)
    .join(", ");

const NOTE =
  "Inside workerd (vitest + @cloudflare/vitest-plugin, local D1), real Worker and conversation object, fake model " +
  "with no latency. Every `D1PreparedStatement` first/run/all/raw and every `D1Database` batch/exec is one round " +
  "trip (counted by patching the D1 binding prototypes, which the object shares with the test); counts are from " +
  "the chat frame until response_complete arrives, on turns after a warm-up turn in the same conversation. The " +
  "delay is added before each call is sent (a remote primary 50 ms away, one way or round trip alike).";

/** The D1 table: this tree alone, or `baseline` (before) beside this tree (after). */
export async function d1HotPath(baseline?: string): Promise<string[]> {
  let before: D1Result | undefined;
  let label = "";
  if (baseline && !git(["rev-parse", "--verify", "--quiet", `${baseline}^{commit}`], false)) {
    console.warn(`D1 bench: no commit ${baseline} in this clone, measuring the working tree alone`);
    baseline = undefined;
  }
  if (baseline) {
    label = git(["rev-parse", "--short", `${baseline}^{commit}`]);
    prepareWorktree(baseline);
    try {
      before = await measure(WORKTREE);
    } finally {
      removeWorktree();
    }
  }
  const after = await measure(process.cwd());
  if (!before) {
    return [
      "| measure | value | range / detail |",
      "| --- | --- | --- |",
      ...rows.map((row) => `| ${row.measure} | ${show(row.value(after), row.unit)} | ${row.detail?.(after) ?? ""} |`),
      "",
      NOTE,
      "",
      `Calls of one 14-step turn, by statement: ${byLabel(after.turn14.labels)}.`,
    ];
  }
  const b = before;
  return [
    `| measure | before (\`${label}\`) | after (working tree) | after / before |`,
    "| --- | --- | --- | --- |",
    ...rows.map((row) => {
      const x = row.value(b);
      const y = row.value(after);
      return `| ${row.measure} | ${show(x, row.unit)} | ${show(y, row.unit)} | ${ratio(x, y)} |`;
    }),
    "",
    NOTE,
    "",
    `Calls of one 14-step turn, by statement, before: ${byLabel(b.turn14.labels)}.`,
    "",
    `After: ${byLabel(after.turn14.labels)}.`,
  ];
}
