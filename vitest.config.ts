// Three test projects: `workers` runs inside workerd (real D1, DO storage and WebSockets) against the
// fake OpenAI-compatible server that test/support/global-setup.ts starts on 127.0.0.1; `node` runs the
// pure logic (`npm run test:unit`: the agent's decision trees, limits, context, executor, …) and tests
// that fake against the real AI SDK; `e2e` drives the real `wrangler dev` and headless Chromium.
import { availableParallelism } from "node:os";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { ProjectTimes } from "./test/support/project-times.ts";
import { SlowFirst } from "./test/support/slow-first.ts";

/** e2e files run side by side (E2E_FILES_AT_ONCE=1: one at a time, e.g. to read one file's output alone). */
const E2E_FILES_AT_ONCE = Number(process.env.E2E_FILES_AT_ONCE) || 3;
/** The later files side by side (E2E_RESTART_FILES_AT_ONCE=1: one at a time). */
const RESTART_FILES_AT_ONCE = Number(process.env.E2E_RESTART_FILES_AT_ONCE) || 4;
/** The e2e files that kill and restart `wrangler dev`: their own project, after the rest. */
const RESTART_FILES = [
  "test/e2e/recovery.test.ts",
  "test/e2e/recovery-browser.test.ts",
  "test/e2e/notify-crash.test.ts",
  "test/e2e/interrupt.test.ts",
  "test/e2e/schedules.test.ts",
  "test/e2e/approvals.test.ts",
  "test/e2e/system-items.test.ts",
  "test/e2e/account-deletion.test.ts",
];
/**
 * After the rest, with the restart files: the real llama-server's file, which keeps a core busy with its
 * model but has an app of its own, so it fills the CPU the restart files leave idle while they wait for
 * an app to come back (the e2e files before are CPU-bound: 1.9 of 2 cores); and `npm start`'s file, whose
 * build and two starts (45 s of CPU) come first and whose wait for them to answer needs none. (The sign-up
 * policies' file, with two apps of its own, was tried here: it took the CPU the real model's stream needs.)
 */
const LATER_FILES = [...RESTART_FILES, "test/e2e/real-llm.test.ts", "test/e2e/start.test.ts"];
/** The Worker's libraries (package.json dependencies it imports), pre-bundled for the workers tests. Not
 * eta: its package's default entry imports node:fs, which the optimizer cannot bundle for workerd. */
const WORKER_LIBRARIES = [
  "ai",
  "@ai-sdk/openai",
  "@ai-sdk/openai-compatible",
  "@ai-sdk/provider",
  "@modelcontextprotocol/sdk/client/index.js",
  "@modelcontextprotocol/sdk/client/streamableHttp.js",
  "@modelcontextprotocol/sdk/client/auth.js",
  "@modelcontextprotocol/sdk/types.js",
  "@modelcontextprotocol/sdk/shared/auth.js",
  "@modelcontextprotocol/sdk/shared/auth-utils.js",
  "@modelcontextprotocol/sdk/server/auth/errors.js",
  "zod",
  "hono",
  "hono/cookie",
  "hono/utils/cookie",
  "hono/secure-headers",
  "hono/combine",
  "drizzle-orm",
  "drizzle-orm/d1",
  "drizzle-orm/sqlite-core",
  "@toon-format/toon",
  "croner",
  "@cfworker/json-schema",
  "ipaddr.js",
  "@simplewebauthn/server",
  "oauth4webapi",
  "linkedom",
  "@mozilla/readability",
  "turndown",
];
/** What both e2e projects share: the real app and Chromium (test/e2e/harness.ts). */
const e2eTest = {
  environment: "node" as const,
  // One demo-model app, one fake-model app and one Chromium for the whole run, each started when a file
  // first asks for it (test/e2e/harness.ts says which files keep their own and why).
  globalSetup: ["test/e2e/shared-setup.ts"],
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // A worker runs file after file without a fresh module graph: the harness, Playwright's client and the
  // fake servers are imported once per worker, not once per file (each file still sets up its own app,
  // browser connection and users in its hooks).
  isolate: false,
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const directoryMigrations = await readD1Migrations("./migrations/directory");
  return {
    test: {
      sequence: { sequencer: SlowFirst },
      reporters: ["default", new ProjectTimes()],
      projects: [
        {
          plugins: [
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // A third shard beside wrangler.toml's two: every test's users land on one of three (d1/shards.ts).
                d1Databases: { SHARD_2: "oracle-shard-2" },
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_DIRECTORY_MIGRATIONS: directoryMigrations,
                  OPENAI_API_KEY: "test-key",
                  OPENAI_BASE_URL: `${inject<string>("llmUrl")}/v1`,
                  OPENAI_MODEL: "fake-model",
                  OPENAI_API_STYLE: "chat",
                  // The test MCP servers and web pages listen on loopback; a hanging MCP call times out after 2 s.
                  ALLOW_LOOPBACK: "true",
                  MCP_ALLOW_LOOPBACK: "true",
                  MCP_TOOL_TIMEOUT_SECONDS: "2",
                  // A page that stalls fails after 2 s (test/workers/web-tools.test.ts), not the default 15.
                  WEB_FETCH_TIMEOUT_SECONDS: "2",
                  SECRETS_KEY: "workers-test-secrets-key-0123456789abcdef",
                  // Tests sign up many users from one address; test/workers/signup.test.ts sets its own limits.
                  SIGNUP: "open",
                  SIGNUP_PER_HOUR: "0",
                  // Small file limits, so test/workers/files.test.ts passes them with small files; the fake model sees images.
                  FILE_MAX_BYTES: String(512 * 1024),
                  FILES_MAX_TOTAL_BYTES: String(1280 * 1024),
                  OPENAI_IMAGE_INPUT: "true",
                  // Generated runs per property (test/workers/properties): few here, many in test:properties.
                  PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? "40",
                  ...(process.env.PROPERTY_SEED ? { PROPERTY_SEED: process.env.PROPERTY_SEED } : {}),
                },
              },
            })),
          ],
          test: {
            name: "workers",
            include: ["test/workers/**/*.test.ts"],
            // Each worker loads the app into its workerd module by module: the libraries pre-bundled once,
            // one module each, instead of hundreds (a load took 7.1 s, then 4.1 s: see CONTRIBUTING.md).
            deps: { optimizer: { ssr: { enabled: true, include: WORKER_LIBRARIES } } },
            // The projects run one after another (node, workers, e2e): each sizes its own parallelism for
            // the whole machine, and Vitest needs distinct groups for projects with different maxWorkers.
            sequence: { groupOrder: 1 },
            globalSetup: ["test/support/global-setup.ts"],
            setupFiles: ["test/workers/apply-migrations.ts"],
            testTimeout: 20_000,
            // A worker's files share one Miniflare (one workerd, its D1 and objects' storage) and the Worker's
            // module graph (isolate: false): a fresh one per file cost 3-4 s of CPU to start, 53 times
            // (the project 147 s → 49 s). So files never assume empty tables or a fresh module: each test
            // makes its own users and conversations. A file waits much of its time (the fake model's delays,
            // timeouts), so one file more than cores runs at once.
            maxWorkers: availableParallelism() + 1,
            isolate: false,
          },
        },
        {
          test: {
            name: "node",
            environment: "node",
            include: ["test/node/**/*.test.ts"],
            sequence: { groupOrder: 0 },
            // Files share their worker's modules (38 s → 15 s, most of it was importing): a file that needs
            // a module's first state imports its own copy after vi.resetModules() (markdown.test.ts).
            isolate: false,
          },
        },
        {
          test: {
            name: "e2e",
            ...e2eTest,
            // warm-up.ts: the real-llm setup and the migrated state, begun while the projects before run.
            globalSetup: [...e2eTest.globalSetup, "test/e2e/warm-up.ts"],
            include: ["test/e2e/**/*.test.ts"],
            exclude: LATER_FILES,
            sequence: { groupOrder: 2 },
            // Three files at a time: an e2e file spends part of its time waiting (on the app, the fake
            // model's delays, a schedule's time), so the others fill the gaps. Files are independent: each
            // test has its own user, keys and browser context on a shared app.
            maxWorkers: E2E_FILES_AT_ONCE,
          },
        },
        {
          test: {
            name: "e2e-restarts",
            ...e2eTest,
            include: LATER_FILES,
            sequence: { groupOrder: 3 },
            // The files that kill and restart an app, after the other e2e files, the real model
            // server's and `npm start`'s: four at a time (start.test.ts's slot mostly waits: with it, the
            // project took 136 s at four, 139 s at three, 135 s without it at three, on a loaded machine).
            // A restart slowed by a loaded machine lets the turn's 10 s watchdog
            // alarm resume the turn before the test reconnects; with App.crash() a restart costs the
            // runtime's start alone (~1.3 s), and three at a time took the restart files from 92 to 76 s.
            maxWorkers: RESTART_FILES_AT_ONCE,
          },
        },
      ],
    },
  };
});
