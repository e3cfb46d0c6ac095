// `npm start` twice on one machine, at the same moment, with different PORTs: both come up and answer
// /api/health (scripts/start.ts gives each its own free inspector port; wrangler's own pick gave both
// 9229 and the second died with "Address already in use"). Runs the real script, so it also builds the
// client (once: the second start finds the first's build up to date) and migrates a local database, as
// `npm start` does: in a copy of the checkout, because a build here would empty the client/dist the
// shared app of the other e2e files serves (its wrangler died of it).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signUp } from "./api-client.ts";
import { freePort, ROOT } from "./harness.ts";

const started: ChildProcess[] = [];
let checkout = "";

beforeAll(() => {
  // The working tree as it is (tracked and new files, not what git ignores), sharing node_modules.
  checkout = mkdtempSync(path.join(tmpdir(), "oracle-start-"));
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" });
  for (const file of files.split("\0").filter((f) => f && existsSync(path.join(ROOT, f)))) {
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(checkout, file));
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(checkout, "node_modules"));
});

function npmStart(port: number): { proc: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    WRANGLER_SEND_METRICS: "false",
    PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  for (const name of Object.keys(env)) if (name.startsWith("OPENAI_")) delete env[name]; // the demo model
  delete env.NODE_ENV; // vitest's "test" would make the client build a development one for every later file
  // detached: a process group of its own, so the script, wrangler and workerd all stop together.
  const proc = spawn(process.execPath, ["scripts/start.ts"], {
    cwd: checkout,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(proc);
  let log = "";
  const collect = (b: Buffer) => {
    log = (log + b.toString("utf8")).slice(-400_000);
  };
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);
  return { proc, output: () => log };
}

async function health(port: number, proc: ChildProcess, output: () => string): Promise<number> {
  // Generous: two starts, one build and one fresh migration, beside three other e2e files on 2 cores.
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`npm start on ${port} exited (${proc.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return res.status;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`npm start on ${port} did not answer:\n${output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

afterAll(async () => {
  await Promise.all(
    started.map(async (proc) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return; // already gone (its exit event has fired)
      const gone = new Promise((resolve) => proc.once("exit", resolve));
      try {
        if (proc.pid && proc.exitCode === null) process.kill(-proc.pid, "SIGTERM");
      } catch {
        return; // already gone
      }
      const timer = setTimeout(() => {
        try {
          if (proc.pid) process.kill(-proc.pid, "SIGKILL");
        } catch {}
      }, 10_000);
      await gone;
      clearTimeout(timer);
    }),
  );
  if (checkout) rmSync(checkout, { recursive: true, force: true });
});

it("runs two `npm start` side by side on different PORTs, both answering /api/health", async () => {
  const [a, b] = [await freePort(), await freePort()];
  const first = npmStart(a);
  const second = npmStart(b);
  const statuses = await Promise.all([health(a, first.proc, first.output), health(b, second.proc, second.output)]);
  expect(statuses).toEqual([200, 200]);
  // The client is built once: the start that gets the setup lock second finds client/dist up to date.
  const said = [first.output(), second.output()];
  expect(said.filter((log) => log.includes("building the client (no build)"))).toHaveLength(1);
  expect(said.filter((log) => log.includes("client/dist is up to date with the sources: not rebuilt"))).toHaveLength(1);
  // The new local database gets every migration in one wrangler run; the second start's own
  // `migrations apply` finds them all recorded as applied (scripts/local-migrations.ts).
  // Three databases (the directory and two shards) each once: made by one start, found done by the other.
  const count = (words: string) => said.join("\n").split(words).length - 1;
  expect(count("every migration in one go")).toBe(3);
  expect(count("No migrations to apply")).toBe(3);
  // …and the schema they made serves a new user and a conversation.
  const user = await signUp(`http://127.0.0.1:${a}`);
  expect(await user.createConversation()).toBeTruthy();
  // Each says which inspector port it took: two different ones, each answering there. (Before, both
  // were left to wrangler, which picked 9229 for both when they started together, and one died.)
  const inspector = (log: string) => Number(/DevTools inspector on 127\.0\.0\.1:(\d+)/.exec(log)?.[1]);
  const ports = [inspector(first.output()), inspector(second.output())];
  expect(ports.every((p) => p > 0)).toBe(true);
  expect(ports[0]).not.toBe(ports[1]);
  for (const p of ports) {
    const res = await fetch(`http://127.0.0.1:${p}/json/version`, { signal: AbortSignal.timeout(5_000) });
    expect(res.ok).toBe(true);
  }
}, 240_000);
