// `npm test`'s second half: the three vitest projects, the e2e project beside the other two. An e2e file
// spends most of its time waiting (for `wrangler dev` to start, the fake model's delays, a schedule's
// time, a restart), so it leaves a 2-core machine half idle; the node and workers projects use that
// half instead of running before it. Two vitest runs, each sizing its own parallelism as vitest.config.ts
// says; every line of each is printed as it comes, behind its run's name, and the exit code is 1 when
// either failed. `vitest run` alone still runs the projects one after another.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

const ROOT = path.resolve(import.meta.dirname, "..");
const vitest = path.join(ROOT, "node_modules/.bin/vitest");

function run(name: string, args: string[]): Promise<number> {
  const started = Date.now();
  const child = spawn(vitest, ["run", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once("error", (error) => {
      process.stdout.write(`[${name}] could not start vitest: ${error.message}\n`);
      resolve(1);
    });
    child.once("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`[${name}] ${code === 0 ? "passed" : `failed (${code ?? signal})`} in ${seconds} s\n`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all([
  run("e2e", ["--project", "e2e"]),
  run("node+workers", ["--project", "node", "--project", "workers"]),
]);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
