// Runs the real app as a user would: `wrangler dev` on loopback with its own fresh local state
// (D1 migrated by wrangler itself), plus headless Chromium, optionally on the fake OpenAI server, and
// one page per test (withPage, asNewUser). Used by test/e2e/*.test.ts.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { findChromium } from "../support/chromium.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
// Run wrangler's JS with this very Node (22), whatever `node` comes first on PATH.
const WRANGLER = [path.join(ROOT, "node_modules/wrangler/bin/wrangler.js")];
const HEALTH_TIMEOUT_MS = 60_000;

/** Every test app may reach MCP servers on loopback (the tests' own) and store their secrets. */
const TEST_VARS: Record<string, string> = {
  MCP_ALLOW_LOOPBACK: "true",
  SECRETS_KEY: "e2e-secrets-key-not-for-production-0123456789",
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

export async function startApp(opts: { env?: Record<string, string>; persistTo?: string } = {}): Promise<App> {
  // A free port can be taken by another process between freePort() and wrangler binding it (CI saw
  // "Address already in use"); that one failure is retried on fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAppOnce(opts);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
    }
  }
}

class PortTaken extends Error {}

async function startAppOnce(opts: { env?: Record<string, string>; persistTo?: string }): Promise<App> {
  ensureClientBuilt();
  const persistDir = opts.persistTo ?? (await mkdtemp(path.join(tmpdir(), "oracle-e2e-")));
  const env = childEnv();

  // Migrations into the very directory wrangler dev will use; CI=true skips the confirmation prompt.
  const mig = spawnSync(
    process.execPath,
    [...WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persistDir],
    {
      cwd: ROOT,
      env: { ...env, CI: "true" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  if (mig.status !== 0) throw new Error(`wrangler d1 migrations apply failed:\n${mig.stdout}\n${mig.stderr}`);

  const port = await freePort();
  const inspectorPort = await freePort(); // not the shared 9229, so runs do not collide
  const args = [
    ...WRANGLER,
    "dev",
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

  const url = `http://127.0.0.1:${port}`;
  const kill = async () => {
    signalGroup(proc, "SIGKILL");
    await waitExit(proc, 10_000);
  };
  const stop = async ({ keepState = false } = {}) => {
    signalGroup(proc, "SIGTERM");
    if (!(await waitExit(proc, 10_000))) await kill();
    if (!keepState) await rm(persistDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      if (/Address already in use/.test(log)) throw new PortTaken(`wrangler dev: a port was taken:\n${log}`);
      throw new Error(`wrangler dev exited (${proc.exitCode ?? proc.signalCode}) before /api/health answered:\n${log}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `GET /api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000}s; wrangler output:\n${log}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, persistDir, inspectorPort, processGroup: proc.pid ?? 0, output: () => log, stop, kill };
}

/** What a test file shares: the app and one browser (appAndBrowserForFile, fakeModelAppForFile). */
export interface AppAndBrowser {
  app: App;
  browser: Browser;
}

/**
 * One app and one browser for a test file: both started (in parallel) before its tests, stopped after
 * them. Read `.app` and `.browser` inside tests and hooks; each test isolates itself by its own user
 * in its own browser context (withPage, asNewUser).
 */
export function appAndBrowserForFile(opts?: Parameters<typeof startApp>[0]): AppAndBrowser {
  return forFile({} as AppAndBrowser, () => opts);
}

/** The --vars that point the app at a fake OpenAI server (model "m"), plus any `extra` (prices, style…). */
export function fakeModelEnv(llm: FakeOpenAI, extra: Record<string, string> = {}): Record<string, string> {
  return { OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "m", ...extra };
}

/**
 * appAndBrowserForFile with the app talking to a fake OpenAI server of the file's own (`.llm`, for
 * scriptModel and modelRequests), started before the app and closed after it; `env` adds --vars.
 */
export function fakeModelAppForFile(env: Record<string, string> = {}): AppAndBrowser & { llm: FakeOpenAI } {
  const shared = {} as AppAndBrowser & { llm: FakeOpenAI };
  beforeAll(async () => {
    shared.llm = await startFakeOpenAI();
  });
  afterAll(async () => {
    await shared.llm?.close();
  });
  return forFile(shared, () => ({ env: fakeModelEnv(shared.llm, env) }));
}

function forFile<T extends AppAndBrowser>(shared: T, appOptions: () => Parameters<typeof startApp>[0]): T {
  beforeAll(async () => {
    [shared.app, shared.browser] = await Promise.all([startApp(appOptions()), launchBrowser()]);
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.app?.stop();
  });
  return shared;
}

/** withPage's options: the browser context's (viewport, locale…; Playwright's defaults where not given), and clipboard access. */
export type PageOptions = Omit<BrowserContextOptions, "baseURL"> & { clipboard?: boolean };

/**
 * Runs one test's `run` on a page of its own (a new browser context, own cookies) on the shared app.
 * The page must raise no errors; on any failure the evidence is left under `name`; the context is
 * closed afterwards either way.
 */
export async function withPage(
  { app, browser }: AppAndBrowser,
  name: string,
  { clipboard = false, ...options }: PageOptions,
  run: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ ...options, baseURL: app.url });
  if (clipboard) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  try {
    await run(page);
    expect(pageErrors).toEqual([]);
  } catch (error) {
    await leaveEvidence(page, app, name, pageErrors);
    throw error;
  } finally {
    await context.close();
  }
}

/** withPage, signed up first as a new user (signUpInBrowser, on the context's viewport); `run` gets the username. */
export async function asNewUser(
  shared: AppAndBrowser,
  name: string,
  options: PageOptions,
  run: (page: Page, username: string) => Promise<void>,
): Promise<void> {
  await withPage(shared, name, options, async (page) => run(page, await signUpInBrowser(page)));
}

/** Headless Chromium: CHROMIUM_PATH, Debian's, or the one an npm package carries (test/support/chromium.ts). */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath, env } = await findChromium();
  return chromium.launch({
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
  });
}

/** A fresh, unique username for one test. */
export function uniqueUsername(prefix = "e2e"): string {
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The password signUpInBrowser gives every user (logInInBrowser signs in with it again). */
export const E2E_PASSWORD = "correct horse battery staple";

/** Signs a new user up through /signup and waits until the app shows the signed-in shell. */
export async function signUpInBrowser(page: Page, username = uniqueUsername()): Promise<string> {
  await page.goto("/signup");
  await page.locator("[data-testid=auth-username]").fill(username);
  await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
  await page.locator("[data-testid=auth-submit]").click();
  await signedInShell(page, username);
  return username;
}

/** The signed-in app, on any viewport (the header hides the username on a phone; the shell names it). */
async function signedInShell(page: Page, username: string): Promise<void> {
  await page.locator(`[data-testid=shell][data-user=${JSON.stringify(username)}]`).waitFor({ timeout: 15_000 });
}

/** Signs an existing user in through /login (e.g. on a restarted app's new origin). */
export async function logInInBrowser(page: Page, username: string, password = E2E_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.locator("[data-testid=auth-username]").fill(username);
  await page.locator("[data-testid=auth-password]").fill(password);
  await page.locator("[data-testid=auth-submit]").click();
  await signedInShell(page, username);
}

/**
 * Starts a conversation from the sidebar (the drawer on a phone), waits until its chat is shown and
 * connected, returns its id. An empty newest conversation is reused rather than a new one made.
 */
export async function newConversationInBrowser(page: Page): Promise<string> {
  const button = page.locator("[data-testid=new-conversation]");
  await page.locator("[data-testid=shell]").waitFor({ timeout: 15_000 });
  // On a phone (the menu button shows) the sidebar is a drawer: open it. On a wide screen the sidebar
  // is beside home and the chats, not the other pages: go home first.
  const menu = page.locator("[data-testid=menu-button]");
  if (await menu.isVisible()) {
    if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  } else if (!(await button.isVisible())) await page.locator("[data-testid=brand]").click();
  await button.waitFor({ state: "visible", timeout: 15_000 });
  // "New" reuses the newest conversation when it is still empty, maybe the one already open (the URL
  // does not change then): the button counts what it opened.
  const opened = Number((await button.getAttribute("data-opened")) ?? 0);
  await button.click();
  await page
    .locator(`[data-testid=new-conversation][data-opened="${opened + 1}"]`)
    .waitFor({ state: "attached", timeout: 15_000 });
  await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
  const id = decodeURIComponent(new URL(page.url()).pathname.slice("/c/".length));
  const chat = page.locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(id)}]`);
  await chat.locator("[data-testid=connection-status][data-status=connected]").waitFor({ timeout: 15_000 });
  return id;
}

/** Waits until the server says no turn is running in the conversation (the page's cookie is used). */
export async function waitTurnEnded(page: Page, conversationId: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await page.request.get(`/api/conversations/${encodeURIComponent(conversationId)}`);
    if (res.ok() && !((await res.json()) as { running: boolean }).running) return;
    if (Date.now() > deadline) throw new Error(`the turn in ${conversationId} did not end within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** On failure: a screenshot under test-results/ and the tail of wrangler's output on stderr. */
export async function leaveEvidence(page: Page, app: App, name: string, pageErrors: string[]): Promise<void> {
  const dir = path.join(ROOT, "test-results");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-failure.png`), fullPage: true }).catch(() => {});
  console.error(`page errors: ${JSON.stringify(pageErrors)}\nwrangler output (tail):\n${app.output().slice(-5000)}`);
}

/** Types `text` into the composer and sends it. */
export async function sendChat(page: Page, text: string): Promise<void> {
  const input = page.locator("[data-testid=composer-input]");
  await input.fill(text);
  await page.locator("[data-testid=send]").click();
}

/**
 * Calls the API from inside the page, as the app itself would: the session cookie and the page's
 * Origin go along, so state-changing routes pass the CSRF check.
 */
export async function apiFromPage<T = unknown>(
  page: Page,
  method: "GET" | "POST" | "PUT" | "DELETE",
  apiPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, apiPath, body }) => {
      const res = await fetch(apiPath, {
        method,
        credentials: "same-origin",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, apiPath, body },
  );
}
