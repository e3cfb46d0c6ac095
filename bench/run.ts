// `npm run bench`: runs every benchmark once on this machine, prints the figures and writes them into
// bench/README.md between the generated markers. Medians (and tails) from one run.
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { fmt, median, quantile } from "./stats.ts";
import { measureStopLatency } from "./stop-latency.ts";

async function loopOverhead() {
  const outfile = "node_modules/.cache/bench/loop-overhead.mjs";
  await build({
    entryPoints: ["bench/loop-overhead.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile,
    logLevel: "error",
  });
  const { measureTurn } = (await import(`../${outfile}`)) as {
    measureTurn: (steps: number) => Promise<{ perStepMs: number[]; totalMs: number }>;
  };
  await measureTurn(50); // warm-up: JIT and module initialisation
  const long = await measureTurn(1000);
  const typical: number[] = [];
  for (let i = 0; i < 20; i++) typical.push(...(await measureTurn(50)).perStepMs);
  return [
    `| loop overhead per step, one 1000-step turn (median of 999 steps) | ${fmt(median(long.perStepMs))} | p99 ${fmt(quantile(long.perStepMs, 0.99))}, total ${fmt(long.totalMs, 0)} |`,
    `| loop overhead per step, 20 turns of 50 steps (median of 980 steps) | ${fmt(median(typical))} | p99 ${fmt(quantile(typical, 0.99))} |`,
  ];
}

async function stopLatency() {
  const runs = await measureStopLatency(20);
  return [
    `| stop frame → response_complete, real Worker + socket (20 stops) | ${fmt(median(runs), 1)} | p95 ${fmt(quantile(runs, 0.95), 1)}, max ${fmt(Math.max(...runs), 1)} |`,
  ];
}

const rows = [...(await loopOverhead()), ...(await stopLatency())];
const table = ["| measure | median | tail |", "| --- | --- | --- |", ...rows].join("\n");
const stamp = `Run on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${(await import("node:os")).cpus().length} cores.`;
console.log(`${stamp}\n${table}`);
const readme = readFileSync("bench/README.md", "utf8");
const block = `<!-- bench:begin -->\n${stamp}\n\n${table}\n<!-- bench:end -->`;
writeFileSync("bench/README.md", readme.replace(/<!-- bench:begin -->[\s\S]*<!-- bench:end -->/, block));
