// `npm start`: build the client (unless client/dist is a build of the sources as they are), migrate the
// local D1 databases, two shards and the directory (local-migrations.ts), then run the Worker with `wrangler dev` on 127.0.0.1:$PORT
// (8787), passing the OPENAI_*, VAPID_* (web push), ADMINS, SIGNUP*, QUOTA_*, FILE*, SEARCH_*, WEB_FETCH* and MEMORY variables of this shell to the Worker, a local
// SECRETS_KEY, and ALLOW_LOOPBACK=true (MCP servers and pages on this machine). PORT is the only knob: the DevTools inspector
// gets a free port of its own, so two `npm start` with different PORTs run side by side.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { clientBuildIsCurrent } from "./client-build-inputs.ts";
import { withFileLock } from "./file-lock.ts";
import { localMigrations } from "./local-migrations.ts";

const LLM_VARS = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_MODEL",
  "OPENAI_API_STYLE",
  "OPENAI_STREAM_IDLE_SECONDS",
  "OPENAI_CONTEXT_WINDOW",
  "OPENAI_PRICE_INPUT",
  "OPENAI_PRICE_CACHED_INPUT",
  "OPENAI_PRICE_OUTPUT",
  "OPENAI_MAX_OUTPUT_TOKENS",
  "OPENAI_PROVIDER_NAME",
  "OPENAI_SEND_REASONING",
  "OPENAI_IMAGE_INPUT",
  "FILE_MAX_BYTES",
  "FILES_MAX_TOTAL_BYTES",
  "USER_PROVIDERS",
  "MCP_TOOL_TIMEOUT_SECONDS",
  "MCP_OAUTH_CLIENT_ID_URL",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
  "VAPID_SUBJECT",
  "ADMINS",
  "SIGNUP_PER_HOUR",
  "QUOTA_DAILY_TOKENS",
  "QUOTA_MONTHLY_TOKENS",
  "QUOTA_DAILY_COST",
  "QUOTA_MONTHLY_COST",
  "SEARCH_PROVIDER",
  "SEARCH_URL",
  "SEARCH_API_KEY",
  "SEARCH_PRICE",
  "WEB_FETCH",
  "WEB_FETCH_MAX_BYTES",
  "WEB_FETCH_TIMEOUT_SECONDS",
  "MEMORY",
] as const;
const port = process.env.PORT ?? "8787";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Two starts at once build and migrate one after the other (withFileLock): each build empties client/dist
 * first, so side by side one emptied what the other was finishing, and two migrations of the one local
 * database both applied the first one ("table already exists").
 */
await withFileLock(".wrangler/setup.lock", () => {
  // The client's build (about 10 s) only when what it read has changed since client/dist was built.
  const client = clientBuildIsCurrent();
  if (client.current) {
    run("npm", ["run", "build:server"]);
    console.log("client/dist is up to date with the sources: not rebuilt");
  } else {
    console.log(`building the client (${client.why})`);
    // Without postbuild's migration (scripts/migrate.ts): this start migrates right after.
    run("npm", ["run", "build", "--ignore-scripts"]);
  }
  for (const migration of localMigrations(process.cwd())) {
    if (migration.allAtOnce) console.log(`migrating the new local ${migration.binding}: every migration in one go`);
    run("wrangler", migration.args);
  }
});

/**
 * The key that seals MCP secrets locally: SECRETS_KEY from the shell, else one made on first start and
 * kept beside the local database (.wrangler/, git-ignored), so saved secrets still open after a restart.
 */
function localSecretsKey(): string {
  if (process.env.SECRETS_KEY) return process.env.SECRETS_KEY;
  const file = ".wrangler/secrets-key";
  if (!existsSync(file)) {
    mkdirSync(".wrangler", { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

const local = {
  SECRETS_KEY: localSecretsKey(),
  // MCP servers, model servers and pages on this machine are allowed in local development (never in the
  // deployed Worker). Its older name MCP_ALLOW_LOOPBACK counts where ALLOW_LOOPBACK is not set; "false"
  // shows what a deployed Worker refuses.
  ALLOW_LOOPBACK: process.env.ALLOW_LOOPBACK ?? process.env.MCP_ALLOW_LOOPBACK ?? "true",
  // The local demo is open to sign-ups unless the shell says otherwise (a deployed Worker: approval). Also
  // open when unset, on 127.0.0.1, but said here for a --ip that is not loopback.
  SIGNUP: process.env.SIGNUP ?? "open",
};
const vars = [
  ...LLM_VARS.flatMap((name) => (process.env[name] ? ["--var", `${name}:${process.env[name]}`] : [])),
  ...Object.entries(local).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
];
const model = process.env.OPENAI_API_KEY
  ? (process.env.OPENAI_MODEL ?? "the default OpenAI model")
  : "the offline demo model";
/**
 * A port the system has free now, for wrangler's inspector. Left to itself wrangler takes 9229 (or the
 * next free one it probes) only when the Worker starts, seconds later, so two starts at once both took
 * 9229 and the second died with "Address already in use".
 */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
}

const inspectorPort = await freePort();
console.log(`\nOracle on http://127.0.0.1:${port} with ${model} (DevTools inspector on 127.0.0.1:${inspectorPort})\n`);
const dev = spawn(
  "wrangler",
  ["dev", "--ip", "127.0.0.1", "--port", port, "--inspector-port", String(inspectorPort), ...vars],
  { stdio: "inherit", env },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
