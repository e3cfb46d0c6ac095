// The app and the browser as processes, with nothing of vitest in it (the e2e global setup imports
// it as well as the tests, benchmarks and scripts): `wrangler dev` on loopback with its own fresh local
// state (D1 migrated by wrangler itself), optionally pointed at a fake OpenAI server, and headless
// Chromium's launch options. test/e2e/harness.ts re-exports all of it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { cp, mkdtemp, rename, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LaunchOptions } from "playwright-core";
import { allMigrationsSql, localMigrations } from "../../scripts/local-migrations.ts";
import { findChromium } from "../support/chromium.ts";
import type { FakeOpenAI } from "../support/fake-openai.ts";
import { runCommand } from "../support/run-command.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
// Run wrangler's JS with this very Node (22), whatever `node` comes first on PATH.
const WRANGLER = [path.join(ROOT, "node_modules/wrangler/bin/wrangler.js")];
const HEALTH_TIMEOUT_MS = 60_000;

/**
 * A VAPID key pair for the test apps only (`node scripts/vapid-keys.ts` made it): every test app offers
 * web push, so a test can subscribe a push endpoint of its own on loopback (finish-notifications.test.ts).
 */
export const TEST_VAPID = {
  VAPID_PUBLIC_KEY: "BBnkrBzeWTfAw2gPxvS85nxyVEGIV0OiqKPugYsPfN-QQEi52wS_Lqnw9qJincVcuAqUsqa3hnqi0u_qyKDR_58",
  VAPID_PRIVATE_KEY: "fdLt7DgdUMfXPIJod4FJQKHIhMK9Kds1TKVeA6WHTXE",
  VAPID_SUBJECT: "mailto:e2e@example.com",
};

/** Every test app may reach MCP servers and pages on loopback (the tests' own) and store their secrets. */
const TEST_VARS: Record<string, string> = {
  ALLOW_LOOPBACK: "true",
  MCP_ALLOW_LOOPBACK: "true",
  // The fake model reads images, so a request carries an attached image's part (attachments.test.ts).
  OPENAI_IMAGE_INPUT: "true",
  SECRETS_KEY: "e2e-secrets-key-not-for-production-0123456789",
  // Every file signs up its users from 127.0.0.1; the sign-up policies have apps of their own (signup.test.ts).
  SIGNUP: "open",
  SIGNUP_PER_HOUR: "0",
  // An admin every file can sign in as (api-client.ts asAdmin), to set a user's quota or approve them.
  ADMINS: "e2e_admin",
  ...TEST_VAPID,
};

export interface App {
  /** e.g. "http://127.0.0.1:41234" */
  url: string;
  /** The local state (D1, DO storage); pass it to startApp({persistTo}) to restart on the same data. */
  persistDir: string;
  /** wrangler's DevTools inspector (the Worker's isolate), for benchmarks that read its heap. */
  inspectorPort: number;
  /** The process group of wrangler and its workerd processes. */
  processGroup: number;
  /** wrangler's output so far (stdout and stderr interleaved). */
  output(): string;
  /** SIGTERM to the whole process group, then wait; removes persistDir unless keepState. */
  stop(opts?: { keepState?: boolean }): Promise<void>;
  /** SIGKILL, as a crash: nothing gets to clean up; persistDir is kept for a restart. */
  kill(): Promise<void>;
  /**
   * SIGKILL to the Workers runtime alone (the workerd that runs the Worker and its objects), as a crash
   * or a deploy ends them: every isolate's memory is gone, the storage stays, and wrangler starts the
   * runtime again on the same state and address. Resolves once the new runtime answers /api/health. A
   * restart this way spares the test a whole `wrangler dev` start (node, bundling, the proxy runtime).
   */
  crash(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A test run that dies must not leave wrangler/workerd behind (they are in their own process group).
process.on("exit", () => {
  for (const p of live) signalGroup(p, "SIGKILL");
});

function signalGroup(p: ChildProcess, sig: NodeJS.Signals) {
  try {
    if (p.pid) process.kill(-p.pid, sig);
  } catch {
    // already gone
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    // Node keeps the compiled code of wrangler's large bundle between processes: 0.5 s of CPU less per start.
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(ROOT, "node_modules/.cache/node-compile-cache"),
    PATH: `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  // The LLM settings reach the Worker only through --var, never from the shell of whoever runs the tests.
  for (const k of Object.keys(env)) if (k.startsWith("OPENAI_")) delete env[k];
  return env;
}

/** E2E_ASSETS_DIR serves a client built elsewhere (`vite build --outDir`), so parallel runs do not share one dist. */
const ASSETS_DIR = process.env.E2E_ASSETS_DIR;

/** Builds client/dist once if missing: wrangler serves it as the static assets. */
export function ensureClientBuilt() {
  if (existsSync(path.join(ASSETS_DIR ?? path.join(ROOT, "client/dist"), "index.html"))) return;
  const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, env: childEnv(), stdio: "inherit" });
  if (r.status !== 0) throw new Error(`npm run build failed (${r.status ?? r.signal})`);
}

/** Where `npm test`'s checks leave the Worker as `wrangler deploy` bundles it (scripts/check.ts), with esbuild's metafile. */
const BUNDLE_DIR = path.join(ROOT, ".wrangler/dry-run");

/**
 * The bundled Worker, when it is newer than every file esbuild read for it and than wrangler.toml: an app
 * then runs it as it is (`--no-bundle`), the very code a deploy uploads. That spares each start bundling
 * the Worker again, and each running app esbuild's watching of its sources (a start's CPU 6.6 → 5.2 s,
 * 30 idle seconds' 1.3 → 0.45 s). Without one (a file edited since, or no `npm test` run yet), wrangler
 * bundles the sources as `npm start` does. Decided once per process.
 */
let prebuilt: string | null | undefined;
function prebuiltWorker(): string | null {
  if (prebuilt !== undefined) return prebuilt;
  prebuilt = null;
  const bundle = path.join(BUNDLE_DIR, "index.js");
  const meta = path.join(BUNDLE_DIR, "bundle-meta.json");
  if (!existsSync(bundle) || !existsSync(meta)) return prebuilt;
  const built = statSync(bundle).mtimeMs;
  const { inputs } = JSON.parse(readFileSync(meta, "utf8")) as { inputs: Record<string, unknown> };
  const read = [...Object.keys(inputs), "wrangler.toml"].map((f) => path.resolve(ROOT, f));
  if (read.every((f) => existsSync(f) && statSync(f).mtimeMs <= built)) prebuilt = bundle;
  return prebuilt;
}

function waitExit(p: ChildProcess, ms: number): Promise<boolean> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    p.once("exit", () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/**
 * `port`: listen there (a restart where open pages reconnect by themselves), else on a free port.
 * `direct`: the app's `url` is the Workers runtime's own address rather than `wrangler dev`'s port. That
 * port is a second runtime, wrangler's proxy, which passes every request on and has wrangler log it:
 * 500 requests cost 4.7 s of CPU through it and 1.9 s without (the e2e tests make thousands). Nothing
 * of the Worker changes (a deploy has no such proxy). Not with `port`, which names wrangler's port.
 */
type StartOptions = { env?: Record<string, string>; persistTo?: string; port?: number; direct?: boolean };

export async function startApp(opts: StartOptions = {}): Promise<App> {
  // A free port can be taken by another process between freePort() and wrangler binding it (CI saw
  // "Address already in use"); that one failure is retried on fresh ports. A port asked for by name may
  // still be held for a moment by the process just killed: it is tried again after a pause.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOnce(opts);
    } catch (error) {
      if (attempt >= 5 || !(error instanceof PortTaken)) throw error;
      if (opts.port) await new Promise((r) => setTimeout(r, 500));
    }
  }
}

class PortTaken extends Error {}

/**
 * A local state migrated as `npm start` migrates one (scripts/local-migrations.ts, through wrangler),
 * made once per set of migrations (and wrangler.toml, wrangler's version) and kept under the system's
 * temporary folder; every fresh app starts on a copy of it. A wrangler process per app start saved.
 */
async function migratedState(env: NodeJS.ProcessEnv): Promise<string> {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(ROOT, "wrangler.toml")));
  hash.update(readFileSync(path.join(ROOT, "node_modules/wrangler/package.json")));
  // Every migration's name and text, as the one-file form holds them.
  hash.update(allMigrationsSql(path.join(ROOT, "migrations")));
  hash.update(allMigrationsSql(path.join(ROOT, "migrations/directory")));
  const template = path.join(tmpdir(), `oracle-e2e-migrated-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(template)) return template;
  const work = await mkdtemp(path.join(tmpdir(), "oracle-e2e-migrating-"));
  // CI=true skips the confirmation prompt. Not spawnSync: the e2e warm-up runs this in Vitest's own process.
  let mig: Awaited<ReturnType<typeof runCommand>> | undefined;
  for (const migration of localMigrations(ROOT, work)) {
    mig = await runCommand(process.execPath, [...WRANGLER, ...migration.args], {
      cwd: ROOT,
      env: { ...env, CI: "true" },
    });
    if (mig.status !== 0) break;
  }
  if (mig && mig.status !== 0) {
    await rm(work, { recursive: true, force: true });
    throw new Error(`wrangler could not migrate the local state (${mig.error ?? mig.status}):\n${mig.output}`);
  }
  // Complete or absent: another run that got there first keeps its copy.
  await rename(work, template).catch(async (error: unknown) => {
    await rm(work, { recursive: true, force: true });
    if (!existsSync(template)) throw error;
  });
  return template;
}

/** Makes the migrated state now if there is none yet (test/e2e/warm-up.ts, while other projects run). */
export async function warmMigratedState(): Promise<void> {
  await migratedState(childEnv());
}

/** A new local state of its own for an app, migrated. */
async function freshState(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "oracle-e2e-"));
  await cp(await migratedState(env), dir, { recursive: true });
  return dir;
}

async function startAppOnce(opts: StartOptions): Promise<App> {
  ensureClientBuilt();
  const env = childEnv();
  // A restart (persistTo) goes on with its state as it was, migrations and all; a fresh app gets a copy
  // of the migrated state.
  const persistDir = opts.persistTo ?? (await freshState(env));

  const port = opts.port ?? (await freePort());
  const inspectorPort = await freePort(); // not the shared 9229, so runs do not collide
  const bundle = prebuiltWorker();
  const args = [
    ...WRANGLER,
    "dev",
    ...(bundle ? [bundle, "--no-bundle"] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    "--persist-to",
    persistDir,
    ...(ASSETS_DIR ? ["--assets", ASSETS_DIR] : []),
    "--show-interactive-dev-session=false",
    "--live-reload=false",
    ...Object.entries({ ...TEST_VARS, ...opts.env }).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
  ];
  // detached: its own process group, so stop/kill reach workerd too.
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  live.add(proc);
  proc.once("exit", () => live.delete(proc));
  let log = "";
  const collect = (b: Buffer) => {
    log = (log + b.toString("utf8")).slice(-200_000);
  };
  proc.stdout?.on("data", collect);
  proc.stderr?.on("data", collect);

  const wranglerUrl = `http://127.0.0.1:${port}`;
  let url = wranglerUrl;
  const kill = async () => {
    signalGroup(proc, "SIGKILL");
    await waitExit(proc, 10_000);
  };
  const stop = async ({ keepState = false } = {}) => {
    signalGroup(proc, "SIGTERM");
    if (!(await waitExit(proc, 10_000))) await kill();
    if (!keepState) await rm(persistDir, { recursive: true, force: true });
  };

  const crash = async () => {
    const runtime = workerRuntime(proc.pid ?? 0, port);
    process.kill(runtime, "SIGKILL");
    // Gone (or a zombie until wrangler reaps it) before the health checks, so none reaches the old one.
    while (alive(runtime)) await new Promise((r) => setTimeout(r, 20));
    const until = Date.now() + HEALTH_TIMEOUT_MS;
    while (!(await healthy(url))) {
      if (Date.now() > until)
        throw new Error(`the runtime did not come back within ${HEALTH_TIMEOUT_MS / 1000}s:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      if (/Address already in use/.test(log)) throw new PortTaken(`wrangler dev: a port was taken:\n${log}`);
      throw new Error(`wrangler dev exited (${proc.exitCode ?? proc.signalCode}) before /api/health answered:\n${log}`);
    }
    if (await healthy(wranglerUrl)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `GET /api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000}s; wrangler output:\n${log}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (opts.direct) {
    if (opts.port) throw new Error("startApp: `direct` and `port` do not go together (port is wrangler's)");
    url = await runtimeUrl(workerRuntime(proc.pid ?? 0, port));
  }
  return { url, persistDir, inspectorPort, processGroup: proc.pid ?? 0, output: () => log, stop, kill, crash };
}

async function healthy(base: string): Promise<boolean> {
  const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
  return res?.status === 200;
}

/**
 * Where the runtime `pid` serves the Worker: of the loopback ports it listens on (/proc/net/tcp, by its
 * sockets' inodes), the one whose /api/health answers. The runtime keeps it when it is started again
 * after a crash (App.crash).
 */
async function runtimeUrl(pid: number): Promise<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const socket = /^socket:\[(\d+)\]$/.exec(readlinkSafe(`/proc/${pid}/fd/${fd}`));
    if (socket?.[1]) inodes.add(socket[1]);
  }
  const ports = readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    // st 0A: listening; local_address "0100007F:PORT" (127.0.0.1), hex.
    .filter((cols) => cols[3] === "0A" && inodes.has(cols[9] ?? "") && cols[1]?.startsWith("0100007F:"))
    .map((cols) => Number.parseInt(cols[1]?.split(":")[1] ?? "", 16));
  for (const candidate of ports) {
    const base = `http://127.0.0.1:${candidate}`;
    if (await healthy(base)) return base;
  }
  throw new Error(`the runtime ${pid} serves the Worker on none of its ports (${ports.join(", ")})`);
}

function readlinkSafe(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "";
  }
}

/** A process's command line and state from /proc (undefined: gone). */
function procInfo(pid: number): { pgid: number; state: string; args: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { state: fields[0] ?? "", pgid: Number(fields[2]), args };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  const info = procInfo(pid);
  return info !== undefined && info.state !== "Z";
}

/**
 * The workerd of `wrangler dev` (process group `group`) that runs the Worker: wrangler starts two, and
 * the other, its proxy, is the one listening on the app's own port.
 */
function workerRuntime(group: number, port: number): number {
  const found = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const info = procInfo(pid);
      return (
        info?.pgid === group &&
        info.state !== "Z" &&
        /\/workerd serve /.test(info.args) &&
        !info.args.includes(`--socket-addr=entry=127.0.0.1:${port} `)
      );
    });
  if (found.length !== 1)
    throw new Error(`expected one Worker runtime in process group ${group}, found ${found.length}`);
  return found[0] as number;
}

/** The --vars that point the app at a fake OpenAI server (model "m"), plus any `extra` (prices, style…). */
export function fakeModelEnv(llm: Pick<FakeOpenAI, "url">, extra: Record<string, string> = {}): Record<string, string> {
  return { OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "m", ...extra };
}

/** Headless Chromium's launch options: CHROMIUM_PATH, Debian's, or the one an npm package carries (test/support/chromium.ts). */
export async function chromiumLaunchOptions(): Promise<LaunchOptions> {
  const { executablePath, env } = await findChromium();
  return {
    executablePath,
    env: { ...process.env, ...env },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  };
}
