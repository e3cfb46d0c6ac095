// The e2e tests' side of the real app (`wrangler dev`, test/e2e/app.ts) and headless Chromium: which
// app and browser a file runs against, and one page per test (withPage, asNewUser) with the helpers
// that drive it. Used by test/e2e/*.test.ts.
//
// Sharing. Starting `wrangler dev` costs seconds of a 2-core machine's CPU, so files share what they
// can, started once per run by test/e2e/shared-setup.ts (the project's globalSetup):
//   - useSharedApp():          the demo-model app (no OPENAI_API_KEY) and the browser;
//   - useSharedFakeModelApp(): the app on the shared fake OpenAI server (`.llm.url`) and the browser;
//   - every file's browser is the shared Chromium (a connection of its own, closed after the file).
// A test on a shared app isolates itself: a browser context of its own, a user of its own (asNewUser,
// signUpInBrowser), its own model keys (`[[key:…]]`, unique per test), and it never counts anything
// beyond its user's (lists, searches, model requests of its key). So it never relies on an empty
// database, and nothing it leaves behind can reach another test.
//
// These keep an app of their own (appAndBrowserForFile, fakeModelAppForFile, startApp), because they
// kill or restart it, or because they need --vars the shared apps must not have:
//   - system-items.test.ts: its last test SIGKILLs the app's runtime mid-turn (App.crash), which comes
//     back on the same state;
//   - interrupt.test.ts, notify-crash.test.ts, recovery.test.ts (killable-chat.ts), approvals.test.ts
//     (one case): the same;
//   - recovery-browser.test.ts (typed while the app is down), schedules.test.ts (a run missed while
//     down): SIGKILL the whole `wrangler dev` and start it again on the same state when they choose;
//   - compaction.test.ts: OPENAI_CONTEXT_WINDOW=4000 (a window this small would compact other tests' chats);
//   - token-meter.test.ts: OPENAI_PRICE_* (prices change every meter the other tests read);
//   - llm-styles.test.ts, "responses" case: OPENAI_API_STYLE=responses (its "chat" case uses the shared app).
//   - account-deletion.test.ts: stops its app to read every SQLite file of its state, then starts it again on it.
//   - web-sources.test.ts: SEARCH_PROVIDER and SEARCH_URL (a search provider would add web_search to every
//     other test's requests).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { type App, chromiumLaunchOptions, fakeModelEnv, ROOT, startApp } from "./app.ts";
import type { SharedAppInfo, SharedAppName } from "./shared-setup.ts";

export { type App, ensureClientBuilt, fakeModelEnv, freePort, ROOT, startApp } from "./app.ts";

/** What tests read of an app, shared or their own: its origin, and wrangler's output for evidence. */
export interface AppView {
  url: string;
  output(): string | Promise<string>;
}

/** What a test file runs against: an app and a browser (a connection to the shared Chromium). */
export interface AppAndBrowser<A extends AppView = AppView> {
  app: A;
  browser: Browser;
}

/** A fake OpenAI server as tests script it (scriptModel, modelRequests): its address. */
export interface ModelServer {
  url: string;
}

async function askShared<T>(method: "GET" | "POST", what: string): Promise<T> {
  const res = await fetch(`${inject("e2eShared")}${what}`, { method });
  const text = await res.text();
  if (!res.ok) throw new Error(`the e2e global setup could not provide ${what}:\n${text}`);
  return (res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text) as T;
}

/** A connection of this file's own to the run's one Chromium (close it after the file). */
export async function sharedBrowser(): Promise<Browser> {
  const { wsEndpoint } = await askShared<{ wsEndpoint: string }>("POST", "/browser");
  return chromium.connect(wsEndpoint);
}

async function sharedApp(name: SharedAppName): Promise<{ app: AppView; llmUrl?: string }> {
  const info = await askShared<SharedAppInfo>("POST", `/app/${name}`);
  return { app: { url: info.url, output: () => askShared<string>("GET", `/app/${name}/output`) }, llmUrl: info.llmUrl };
}

/** Connects `.browser` to the shared Chromium before the file's tests, and disconnects after them. */
function withSharedBrowser<T extends { browser: Browser }>(shared: T): T {
  beforeAll(async () => {
    shared.browser = await sharedBrowser();
  });
  afterAll(async () => {
    await shared.browser?.close(); // a connection: closes its contexts and disconnects
  });
  return shared;
}

/**
 * The run's demo-model app (`wrangler dev` with no OPENAI_API_KEY), and the shared browser unless
 * `{ browser: false }`. Read `.app` and `.browser` inside tests and hooks; never stop the app.
 */
export function useSharedApp(options: { browser: false }): { app: AppView };
export function useSharedApp(options?: { browser?: true }): AppAndBrowser;
export function useSharedApp({ browser = true }: { browser?: boolean } = {}): AppAndBrowser | { app: AppView } {
  const shared = {} as AppAndBrowser;
  beforeAll(async () => {
    shared.app = (await sharedApp("demo")).app;
  });
  return browser ? withSharedBrowser(shared) : shared;
}

/**
 * The run's app on the shared fake OpenAI server (`.llm.url` for scriptModel and modelRequests; model
 * "m", Chat Completions), and the shared browser unless `{ browser: false }`. Script only keys of the
 * test's own; never stop the app.
 */
export function useSharedFakeModelApp(options: { browser: false }): { app: AppView; llm: ModelServer };
export function useSharedFakeModelApp(options?: { browser?: true }): AppAndBrowser & { llm: ModelServer };
export function useSharedFakeModelApp({ browser = true }: { browser?: boolean } = {}): {
  app: AppView;
  llm: ModelServer;
} {
  const shared = {} as AppAndBrowser & { llm: ModelServer };
  beforeAll(async () => {
    const { app, llmUrl } = await sharedApp("fake-model");
    if (!llmUrl) throw new Error("the shared fake-model app came without its fake OpenAI server");
    shared.app = app;
    shared.llm = { url: llmUrl };
  });
  return browser ? withSharedBrowser(shared) : shared;
}

/**
 * An app of the file's own (for a file that kills or restarts it, or needs other --vars), started
 * before its tests and stopped after them, and the shared browser. Each test still isolates itself by
 * its own user in its own browser context (withPage, asNewUser).
 */
export function appAndBrowserForFile(opts?: Parameters<typeof startApp>[0]): AppAndBrowser<App> {
  const shared = {} as AppAndBrowser<App>;
  beforeAll(async () => {
    shared.app = await startApp({ direct: true, ...opts });
  });
  afterAll(async () => {
    await shared.app?.stop();
  });
  return withSharedBrowser(shared);
}

/**
 * appAndBrowserForFile with the app talking to a fake OpenAI server of the file's own (`.llm`, for
 * scriptModel and modelRequests), started before the app and closed after it; `env` adds --vars.
 * `direct: false`: served on wrangler's own port (a file that starts wrangler again on that port).
 */
export function fakeModelAppForFile(
  env: Record<string, string> = {},
  { direct = true }: { direct?: boolean } = {},
): AppAndBrowser<App> & { llm: ModelServer } {
  const shared = {} as AppAndBrowser<App> & { llm: ModelServer };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const llm = await startFakeOpenAI();
    close = llm.close;
    shared.llm = { url: llm.url };
    shared.app = await startApp({ env: fakeModelEnv(llm, env), direct });
  });
  afterAll(async () => {
    await shared.app?.stop();
    await close?.();
  });
  return withSharedBrowser(shared);
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
  // No service worker unless a test asks for one (the PWA test): installing it in every new context
  // fetches and caches the whole shell again, for nothing the test looks at.
  const context = await browser.newContext({
    serviceWorkers: "block",
    reducedMotion: "reduce",
    ...options,
    baseURL: app.url,
  });
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

/** A browser of the caller's own (scripts; the tests connect to the shared one): test/e2e/app.ts chromiumLaunchOptions. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(await chromiumLaunchOptions());
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
 * Opens a new, empty conversation in the chat and waits until it is connected; returns its id. The app
 * makes a conversation only with its first message ("New conversation" goes home), so it is made
 * through the API and opened as a click on its sidebar row would: in the page, without a reload.
 */
export async function newConversationInBrowser(page: Page): Promise<string> {
  await page.locator("[data-testid=shell]").waitFor({ timeout: 15_000 });
  const made = await apiFromPage<{ id: string }>(page, "POST", "/api/conversations", {});
  if (made.status !== 201)
    throw new Error(`could not make a conversation: ${made.status} ${JSON.stringify(made.body)}`);
  const { id } = made.body;
  await page.evaluate(
    (path) => {
      history.pushState(null, "", path);
      dispatchEvent(new PopStateEvent("popstate")); // lib/router.ts follows the address on popstate
    },
    `/c/${encodeURIComponent(id)}`,
  );
  const chat = page.locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(id)}]`);
  await chat
    .locator("[data-testid=connection-status][data-status=connected]")
    .waitFor({ state: "attached", timeout: 15_000 });
  // The sidebar lists a conversation it did not know once it is opened (in the drawer on a phone).
  await page
    .locator(`[data-testid=conversation-item][data-id=${JSON.stringify(id)}]`)
    .waitFor({ state: "attached", timeout: 15_000 });
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
export async function leaveEvidence(page: Page, app: AppView, name: string, pageErrors: string[]): Promise<void> {
  const dir = path.join(ROOT, "test-results");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-failure.png`), fullPage: true }).catch(() => {});
  console.error(
    `page errors: ${JSON.stringify(pageErrors)}\nwrangler output (tail):\n${(await app.output()).slice(-5000)}`,
  );
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
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
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

/**
 * The sizes layout.test.ts runs at: a desktop and two phones (with touch and a mobile viewport). Other
 * files use DESKTOP_AND_PHONE (a third size is a whole run more of a file on a CPU-bound project); a
 * check about the narrowest phone narrows the phone's page to 360 px (page.setViewportSize).
 */
export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800, phone: false },
  { name: "phone 390", width: 390, height: 844, phone: true },
  { name: "phone 360", width: 360, height: 740, phone: true },
] as const;

/** A desktop and the common phone: the sizes a test of one screen runs at. */
export const DESKTOP_AND_PHONE = [
  { name: "desktop", width: 1280, height: 800, phone: false },
  { name: "phone", width: 390, height: 844, phone: true },
] as const;

/** A browser context at `viewport`'s size: a phone's has touch and a mobile viewport. */
export function viewportOptions(viewport: { width: number; height: number; phone: boolean }) {
  const { width, height, phone } = viewport;
  return { viewport: { width, height }, hasTouch: phone, isMobile: phone };
}
