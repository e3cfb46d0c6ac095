// vitest globalSetup of the `e2e` project: what the test files share, each started at most once per run
// and only when a file first asks for it (so running one file starts only what that file needs):
//   - "demo": `wrangler dev` with no OPENAI_API_KEY (the offline demo model), as `npm start` runs it;
//   - "fake-model": `wrangler dev` on one fake OpenAI server (test/support/fake-openai.ts, scripted per
//     `[[key:…]]` marker, so every test's own key keeps its script and requests apart);
//   - one headless Chromium (playwright-core's launchServer), which files connect to; each test opens
//     its own browser context in it.
// Test files run in vitest's workers, this runs in the main process: files ask a small HTTP server on
// loopback for them (harness.ts useSharedApp, useSharedFakeModelApp, sharedBrowser); its address is
// provided as `e2eShared`. Everything is stopped when the run ends.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CONFORMANCE_APP_VARS } from "../conformance/app-vars.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.ts";
import { type App, chromiumLaunchOptions, fakeModelEnv, startApp } from "./app.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The address of shared-setup.ts's control server, e.g. "http://127.0.0.1:43125". */
    e2eShared: string;
  }
}

export type SharedAppName = "demo" | "fake-model";

/** What POST /app/:name answers. */
export interface SharedAppInfo {
  url: string;
  /** The fake OpenAI server the app talks to ("fake-model" only). */
  llmUrl?: string;
}

/** A start that failed is forgotten, so the next file tries again (and fails in its own words). */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => {
    started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  };
}

export default async function setup({ provide }: TestProject) {
  const started: { llm?: FakeOpenAI; browser?: BrowserServer; apps: App[] } = { apps: [] };
  const appLogs = new Map<SharedAppName, App>();

  const llm = once(async () => {
    started.llm = await startFakeOpenAI();
    return started.llm;
  });
  const browser = once(async () => {
    started.browser = await chromium.launchServer(await chromiumLaunchOptions());
    return started.browser;
  });
  const launch = async (name: SharedAppName, env: Record<string, string> = {}): Promise<App> => {
    const app = await startApp({ env, direct: true });
    started.apps.push(app);
    appLogs.set(name, app);
    return app;
  };
  const apps: Record<SharedAppName, () => Promise<SharedAppInfo>> = {
    demo: once(async () => ({ url: (await launch("demo")).url })),
    // OPENAI_API_STYLE is spelt out (it is the default) so that llm-styles.test.ts's "chat" case runs here;
    // conformance.test.ts runs here too, with the suite's client id (app-vars.ts).
    "fake-model": once(async () => {
      const fake = await llm();
      const app = await launch("fake-model", fakeModelEnv(fake, { OPENAI_API_STYLE: "chat", ...CONFORMANCE_APP_VARS }));
      return { url: app.url, llmUrl: fake.url };
    }),
  };

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const route = `${req.method} ${req.url}`;
    const app = /^(POST|GET) \/app\/([a-z-]+)(\/output)?$/.exec(route);
    const name = app?.[2] as SharedAppName | undefined;
    let answer: Promise<unknown>;
    if (route === "POST /browser") answer = browser().then((b) => ({ wsEndpoint: b.wsEndpoint() }));
    else if (app?.[1] === "POST" && !app[3] && name && Object.hasOwn(apps, name)) answer = apps[name]();
    else if (app?.[1] === "GET" && app[3] && name) answer = Promise.resolve(appLogs.get(name)?.output() ?? "");
    else return reply(404, { error: `no route ${route}` });
    answer.then(
      (body) => reply(200, body),
      (error: unknown) => reply(500, error instanceof Error ? (error.stack ?? error.message) : String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  provide("e2eShared", `http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([started.browser?.close(), ...started.apps.map((app) => app.stop())]);
    await started.llm?.close();
  };
}
