// `npm run bench`: runs every benchmark once on this machine, prints the figures and writes them into
// bench/README.md between the generated markers. Medians (and tails) from one run.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { bundleRows, writeBundleSection } from "./bundle-size.ts";
import { clientSizeRows, measureClient } from "./client-size.ts";
import { measureClientStreaming, streamingRows, writeStreamingSection } from "./client-streaming.ts";
import type { ConversationFigures } from "./context-figures.ts";
import { d1HotPath } from "./d1-hot-path.ts";
import { measureNotificationTokens } from "./notification-tokens.ts";
import { measureRestartResume } from "./restart-resume.ts";
import { fmt, median, quantile } from "./stats.ts";
import { measureStepPhases, PHASES } from "./step-phases.ts";
import { measureStopLatency, stopRows } from "./stop-latency.ts";

type CorpusBench = { evaluateCorpus: () => import("./loop-corpus/evaluate.ts").CorpusResult };

/** Seed 001 SC-007: the loop detector against the labelled corpus (bench/loop-corpus). */
async function loopDetection(): Promise<string[]> {
  const { evaluateCorpus } = await load<CorpusBench>("loop-corpus/evaluate");
  const r = evaluateCorpus();
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const row = (what: string, s: typeof r.warning) =>
    `| ${what} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.falsePositiveRate)} | ${s.truePositives} / ${s.falseNegatives} / ${s.falsePositives} / ${s.trueNegatives} |`;
  return [
    `${r.sequences} sequences (${r.stuck} stuck, ${r.sequences - r.stuck} progressing). SC-007 asks for 95 % and under 5 % false positives.`,
    "",
    "| | precision | recall | false-positive rate | TP / FN / FP / TN |",
    "| --- | --- | --- | --- | --- |",
    row("warning (loop.detected)", r.warning),
    row("stop (no_progress, error_limit)", r.stop),
  ];
}

/** Bundles a benchmark that imports Worker code (extensionless imports) and loads it in Node. */
async function load<T>(name: string): Promise<T> {
  const outfile = `node_modules/.cache/bench/${name}.mjs`;
  const options = { bundle: true, platform: "node", format: "esm", packages: "external", logLevel: "error" } as const;
  await build({ ...options, entryPoints: [`bench/${name}.ts`], outfile });
  return (await import(`../${outfile}`)) as T;
}

type TurnBench = {
  measureTurn: (steps: number, options?: { reasoning?: number }) => Promise<{ perStepMs: number[]; totalMs: number }>;
};

async function loopOverhead() {
  const { measureTurn } = await load<TurnBench>("workers/loop-overhead");
  await measureTurn(50); // warm-up: JIT and module initialisation
  const long = await measureTurn(1000);
  const typical: number[] = [];
  for (let i = 0; i < 20; i++) typical.push(...(await measureTurn(50)).perStepMs);
  // Issue 28: what a reasoning part costs the loop per step (streamed as frames, kept on the step's
  // message, in the log the next request is built from): 100 deltas of 8 characters per model call.
  const thinking: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 10; i++) {
    plain.push(...(await measureTurn(50)).perStepMs);
    thinking.push(...(await measureTurn(50, { reasoning: 100 })).perStepMs);
  }
  const extra = median(thinking) - median(plain);
  return [
    `| loop overhead per step, one 1000-step turn (median of 999 steps) | ${fmt(median(long.perStepMs))} | p99 ${fmt(quantile(long.perStepMs, 0.99))}, total ${fmt(long.totalMs, 0)} |`,
    `| loop overhead per step with reasoning: 100 deltas (800 characters) per call, 10 turns of 50 steps, run alternately with 10 without | ${fmt(median(thinking))} | without ${fmt(median(plain))}: ${(extra * 1000).toFixed(0)} µs per step for the reasoning, ${((extra * 1000) / 100).toFixed(2)} µs per delta |`,
    `| loop overhead per step, 20 turns of 50 steps (median of 980 steps) | ${fmt(median(typical))} | p99 ${fmt(quantile(typical, 0.99))} |`,
  ];
}

async function busThroughput() {
  const { measureBus } = await load<{
    measureBus: (n: number) => {
      eventsPerSecond: number;
      latenciesMs: number[];
      notifications: number;
      lost: number;
    };
  }>("bus-throughput");
  measureBus(20_000); // warm-up
  const runs = [0, 1, 2].map(() => measureBus(100_000));
  const best = runs.sort((a, b) => a.eventsPerSecond - b.eventsPerSecond)[1] ?? runs[0];
  if (!best) throw new Error("no bus run");
  const lost = best.lost;
  return [
    `| bus: events/s to built notifications, shipped subscribers (median of 3 runs of 100,000) | ${Math.round(best.eventsPerSecond).toLocaleString("en-US")}/s | ${best.notifications.toLocaleString("en-US")} notifications, ${lost} events lost |`,
    `| bus: latency of one publish (incl. its share of injection-point takes) | ${fmt(median(best.latenciesMs), 4)} | p99 ${fmt(quantile(best.latenciesMs, 0.99), 4)} |`,
  ];
}

/** Issue 40: with the time to the turn's end, when Stop closed the model request (bench/stop-latency.ts). */
async function stopLatency() {
  return stopRows(await measureStopLatency(20));
}

/** Issue 29: a turn cut short by a restart, from the reconnecting client's socket to its next frames. */
async function restartResume() {
  const r = await measureRestartResume(10);
  const row = (what: string, xs: number[]) => `| ${what} | ${fmt(median(xs), 1)} | max ${fmt(Math.max(...xs), 1)} |`;
  return [
    row("restart → resumed turn's first frame, from the reconnecting socket's open (10 kills)", r.firstFrameMs),
    row("restart → the model's first text again, from the same socket open", r.firstTextMs),
    row("restart: SIGKILL → `wrangler dev` answering again (the process, not the product)", r.processStartMs),
  ];
}

type ContextBench = {
  runConversation: (
    turns: number,
    window: number,
    limit?: number,
    edit?: { at: number; from: number },
    files?: boolean,
    project?: boolean,
  ) => Promise<ConversationFigures>;
};

/** Issue 12: a 200-turn conversation with a 16,000-token window against the same one sent whole. */
async function contextCompaction(): Promise<string[]> {
  const { runConversation } = await load<ContextBench>("workers/context-compaction");
  const TURNS = 200;
  const WINDOW = 16_000;
  const compacted = await runConversation(TURNS, WINDOW);
  const whole = await runConversation(TURNS, 1e12, WINDOW);
  // Issue 27: the same conversation, but at turn 100 the user edits their message of turn 50.
  const branched = await runConversation(TURNS, WINDOW, WINDOW, { at: 100, from: 50 });
  // Issue 45: the same conversation with files: every 50th message carries an image, a note and a long CSV.
  const withFiles = await runConversation(TURNS, WINDOW, WINDOW, undefined, true);
  // Issue 47: in a project, with the user's instructions (changed at turn 100), the project's file and 20 memories.
  const inProject = await runConversation(TURNS, WINDOW, WINDOW, undefined, false, true);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const row = (label: string, f: (c: ConversationFigures) => string) =>
    `| ${label} | ${f(whole)} | ${f(compacted)} | ${f(branched)} | ${f(withFiles)} | ${f(inProject)} |`;
  return [
    `${TURNS} turns (a tool step every 4th turn, a tool failure every 10th, a task reminder every 6th request), o200k_base tokens of each request's tool declarations and messages; window ${WINDOW.toLocaleString("en-US")} tokens.`,
    "",
    "| | whole history (before) | compacted (now) | compacted, branched at turn 100 | compacted, with files | compacted, in a project |",
    "| --- | --- | --- | --- | --- | --- |",
    row("turns completed", (f) => String(f.turnsCompleted)),
    row("requests (summary calls included)", (f) => `${f.requests} (${f.compactions} compactions)`),
    row("input tokens sent, total", (f) => f.inputTokens.toLocaleString("en-US")),
    row("largest request", (f) => f.largest.toLocaleString("en-US")),
    row("requests over the window", (f) => String(f.overWindow)),
    row("input tokens in the previous request's prefix (cacheable)", (f) => pct(f.cachedTokens / f.inputTokens)),
    row("share of a request that is the previous request's prefix, median", (f) => pct(median(f.prefixShares))),
    row("requests beginning with the whole previous request", (f) => `${f.wholePrefix} of ${f.pairs}`),
    "",
    `Input tokens, compacted ÷ whole: ${(compacted.inputTokens / whole.inputTokens).toFixed(3)}. The requests that do not begin with the whole previous one are each compaction's summary call and the request after it (2 per compaction).`,
    "",
    "Branched: at turn 100 the user edits their message of turn 50, and turns 100–199 run on that branch; the model reads the branch's path only. Prefix figures are within a branch: the first request after the branch point follows the other branch's last request and is left out of them (and of the cached tokens).",
    "",
    "With files: every 50th user message carries an image (sent as an image part), a short Markdown note (its text in a Files System message) and a 2,000-row CSV (its outline and the way to read it with file_read), as the conversation object sends them.",
    "",
    "In a project: before the first message, the context item (the user's instructions, the project's instructions and its note, 20 memories) and the note's text; the memory and file tools declared; at turn 100 the user changes their instructions, and the update item precedes the next message.",
  ];
}

async function mcpOverhead() {
  const { measureMcp } = await load<{
    measureMcp: (turns: number, calls: number) => Promise<{ turnStartMs: number[]; callMs: number[] }>;
  }>("mcp-overhead");
  const { turnStartMs, callMs } = await measureMcp(50, 200);
  return [
    `| MCP: a turn's start with one server, connect + tools/list (50 turns, SDK server on loopback) | ${fmt(median(turnStartMs), 1)} | p95 ${fmt(quantile(turnStartMs, 0.95), 1)} |`,
    `| MCP: one tool call, request to result (200 calls) | ${fmt(median(callMs), 1)} | p95 ${fmt(quantile(callMs, 0.95), 1)} |`,
  ];
}

/** Issue 25: where a 5-tool-step turn's time goes, phase by phase, on the real Worker. */
async function stepPhases(): Promise<string[]> {
  const TOOLS = 5;
  const TURNS = 30;
  const samples = await measureStepPhases(TOOLS, TURNS);
  return [
    `A turn of ${TOOLS} vault_list steps and an answer, ${TURNS} turns in one conversation (\`bench/step-phases.ts\`); per step where a phase happens once a step.`,
    "",
    "| phase | what it covers | median | p95 |",
    "| --- | --- | --- | --- |",
    ...PHASES.map(([name, what]) => {
      const xs = samples[name];
      return `| ${name} | ${what} | ${fmt(median(xs), 2)} | ${fmt(quantile(xs, 0.95), 2)} |`;
    }),
  ];
}

async function memory() {
  const { measureMemory, memoryRows } = await import("./memory.ts");
  return memoryRows(await measureMemory(300, 30, 500));
}

const client = measureClient();
const rows = [
  ...(await loopOverhead()),
  ...(await busThroughput()),
  ...(await stopLatency()),
  ...(await restartResume()),
  ...(await mcpOverhead()),
  ...(await memory()),
  ...clientSizeRows(client),
];
const table = ["| measure | median | tail |", "| --- | --- | --- |", ...rows].join("\n");
const stamp = `Run on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import("node:os")).cpus().length} cores.`;
console.log(`${stamp}\n${table}`);
// Issue 26: the client's chunks, in their own section of the README (bench/bundle-size.ts).
const bundle = await bundleRows(client);
console.log(`\n${bundle.join("\n")}`);
writeBundleSection(bundle, stamp);
// Issue 39: a streamed answer in conversations of ~100 and ~1,000 messages, in headless Chromium
// (bench/client-streaming.ts), in its own section of the README.
const streaming = streamingRows(await measureClientStreaming());
console.log(`\n${streaming.join("\n")}`);
writeStreamingSection(streaming, stamp);
const readme = readFileSync("bench/README.md", "utf8");
const tokens = await measureNotificationTokens();
console.log(`\n${tokens.join("\n")}`);
// The D1 table also measures a baseline commit (in a temporary worktree), side by side: by default the
// last commit before the log moved into the object (issue 11); BENCH_BASELINE=<commit> picks another,
// BENCH_BASELINE= (empty) none. Skipped when the clone does not have that commit.
const BEFORE_LOCAL_LOG = "c4ac8ff";
const d1 = await d1HotPath(process.env.BENCH_BASELINE ?? BEFORE_LOCAL_LOG);
console.log(`\n${d1.join("\n")}`);
const phases = await stepPhases();
console.log(`\n${phases.join("\n")}`);
const context = await contextCompaction();
console.log(`\n${context.join("\n")}`);
const loops = await loopDetection();
console.log(`\n${loops.join("\n")}`);
const block = `<!-- bench:begin -->\n${stamp}\n\n${table}\n\n### The phases of a multi-step turn\n\n${phases.join("\n")}\n\n### Context over a long conversation (compaction, prompt caching)\n\n${context.join("\n")}\n\n### Notification tokens (o200k_base)\n\n${tokens.join("\n")}\n\n### D1 on the hot path of a turn\n\n${d1.join("\n")}\n\n### Loop detection on the labelled corpus (seed 001 SC-007)\n\n${loops.join("\n")}\n<!-- bench:end -->`;
writeFileSync("bench/README.md", readme.replace(/<!-- bench:begin -->[\s\S]*<!-- bench:end -->/, block));
// The tables as `npm test`'s biome check wants them (aligned columns), so a fresh run keeps CI green.
spawnSync("npx", ["biome", "format", "--write", "bench/README.md"], { stdio: "inherit" });
