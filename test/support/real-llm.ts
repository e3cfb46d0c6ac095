// A real OpenAI-compatible server for tests: llama.cpp's llama-server with the tiny test model, from
// the shared folder beside the repository (../shared/real-llm, its README says what the model answers).
// setup.sh unpacks the server into the repository's git-ignored .cache/real-llm (through apt on a fresh
// machine, ~10 s; nothing is installed); a machine without the folder, or where setup fails, gets a
// reason to skip instead of a failure.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { withFileLock } from "../../scripts/file-lock.ts";
import { runCommand } from "./run-command.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const REAL_LLM_DIR = path.resolve(ROOT, "../shared/real-llm");
export const REAL_LLM_CACHE = path.join(ROOT, ".cache/real-llm");

/**
 * Runs setup.sh (idempotent); undefined when the server can run, else why the real-server tests are
 * skipped. One at a time (a lock file in the cache): the e2e project's warm-up (test/e2e/warm-up.ts)
 * starts it while the other projects run, and the test file waits for that one to end.
 */
export async function prepareRealLlm(): Promise<string | undefined> {
  if (!existsSync(path.join(REAL_LLM_DIR, "setup.sh"))) return `no ${REAL_LLM_DIR}/setup.sh on this machine`;
  return withFileLock(`${REAL_LLM_CACHE}.lock`, async () => {
    const setup = await runCommand("sh", [path.join(REAL_LLM_DIR, "setup.sh")], {
      env: { ...process.env, REAL_LLM_CACHE },
      timeoutMs: 300_000,
    });
    if (setup.status === 0) return undefined;
    const said = setup.output.trim().split("\n").slice(-5).join("\n");
    return `${REAL_LLM_DIR}/setup.sh failed (${setup.error ?? `exit ${setup.status}`}): ${said}`;
  });
}

const live = new Set<ChildProcess>();
// A test run that dies must not leave a server behind (it runs in its own process group).
process.on("exit", () => {
  for (const proc of live) signalGroup(proc, "SIGKILL");
});

export interface LlamaServer {
  /** e.g. "http://127.0.0.1:41234" (the OpenAI API is under /v1). */
  url: string;
  port: number;
  /** Everything the server wrote (its log has each request's prompt token count). */
  output(): string;
  stop(): Promise<void>;
}

/** llama-server on `port` (loopback), once /health answers 200. */
export async function startLlamaServer(port: number): Promise<LlamaServer> {
  const model = path.join(REAL_LLM_CACHE, "tiny3-q8.gguf");
  const args = ["llama-server", "-m", model, "--host", "127.0.0.1", "--port", String(port)];
  // One thread: the tiny model needs no more, and on a machine whose cores the other tests keep busy,
  // a second thread mostly spins waiting for the first.
  args.push("-np", "1", "-c", "4096", "--temp", "0", "--no-webui", "-t", "1", "-tb", "1");
  const proc = spawn(path.join(REAL_LLM_DIR, "llama.sh"), args, {
    env: { ...process.env, REAL_LLM_CACHE },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(proc);
  proc.once("exit", () => live.delete(proc));
  let log = "";
  const collect = (b: Buffer) => {
    log = (log + b.toString("utf8")).slice(-400_000);
  };
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);
  const url = `http://127.0.0.1:${port}`;
  const server: LlamaServer = { url, port, output: () => log, stop: () => stopGroup(proc) };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`llama-server exited (${proc.exitCode ?? proc.signalCode}):\n${log.slice(-3000)}`);
    }
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (health?.status === 200) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`llama-server did not answer /health within 60 s:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** SIGTERM to the server's process group (then SIGKILL), and wait until it is gone. */
async function stopGroup(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  signalGroup(proc, "SIGTERM");
  const timer = setTimeout(() => signalGroup(proc, "SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

function signalGroup(proc: ChildProcess, sig: NodeJS.Signals) {
  try {
    if (proc.pid) process.kill(-proc.pid, sig);
  } catch {
    // already gone
  }
}
