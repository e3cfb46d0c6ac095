// `npm start`: build the client, migrate the local D1 database, then run the Worker with `wrangler dev`
// on 127.0.0.1:$PORT (8787), passing the OPENAI_* variables of this shell to the Worker, a local
// SECRETS_KEY, and MCP_ALLOW_LOOPBACK=true (MCP servers on this machine).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

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
  "MCP_TOOL_TIMEOUT_SECONDS",
] as const;
const port = process.env.PORT ?? "8787";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npm", ["run", "build"]);
run("wrangler", ["d1", "migrations", "apply", "DB", "--local"]);

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
  // MCP servers on this machine are allowed in local development (never in the deployed Worker).
  MCP_ALLOW_LOOPBACK: process.env.MCP_ALLOW_LOOPBACK ?? "true",
};
const vars = [
  ...LLM_VARS.flatMap((name) => (process.env[name] ? ["--var", `${name}:${process.env[name]}`] : [])),
  ...Object.entries(local).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
];
const model = process.env.OPENAI_API_KEY
  ? (process.env.OPENAI_MODEL ?? "the default OpenAI model")
  : "the offline demo model";
console.log(`\nOracle on http://127.0.0.1:${port} with ${model}\n`);
const dev = spawn("wrangler", ["dev", "--ip", "127.0.0.1", "--port", port, ...vars], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));
