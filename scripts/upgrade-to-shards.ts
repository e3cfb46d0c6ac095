// `npm run upgrade-to-shards -- --remote` (or `--local [--persist-to <dir>]`): an installation made before
// shards, whose one database (binding DB, database `oracle`) holds every user, becomes shard 0 of the
// sharded design (d1/shards.ts) and gets its directory. It migrates every D1 database wrangler.toml binds
// (the directory, shard 0, any new shard), reads from shard 0 what the directory holds (accounts,
// passkeys, linked sign-ins, browsers' push endpoints, active admins, invites, the admins' audit log), page by page, and writes
// into the directory what it lacks (INSERT OR IGNORE, scripts/shard-upgrade-sql.ts). Nothing in shard 0
// changes but its migrations. Run again, it finds everything there and says so: run it once more after
// the deploy, for what the old Worker wrote in between.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { d1Bindings } from "./local-migrations.ts";
import { KINDS, type Kind, PAGE_ROWS, type Plan, type Row } from "./shard-upgrade-sql.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
/** Shard 0's binding keeps the name the one database had (d1/shards.ts shardBinding). */
const SHARD_0 = "DB";
const DIRECTORY = "DIRECTORY";
/** SQL written per `wrangler d1 execute --file` (a large installation's directory goes in several). */
const FILE_BYTES = 4_000_000;

const USAGE = "usage: npm run upgrade-to-shards -- --local [--persist-to <dir>] | --remote";

function options(args: string[]): { where: string[] } {
  const where: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--local" || arg === "--remote") where.push(arg);
    else if (arg === "--persist-to" && args[i + 1]) where.push(arg, args[++i] as string);
    else if (arg?.startsWith("--persist-to=")) where.push(arg);
    else fail(`unknown argument ${arg}\n${USAGE}`);
  }
  const places = where.filter((a) => a === "--local" || a === "--remote");
  if (places.length !== 1) fail(`say where: --local or --remote\n${USAGE}`);
  if (where.includes("--remote") && where.some((a) => a.startsWith("--persist-to")))
    fail("--persist-to is for --local");
  return { where };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** wrangler with these arguments; its output, or the run ends with what it said. */
function wrangler(args: string[], { quiet = false } = {}): string {
  const result = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
  });
  if (result.status !== 0)
    fail(
      `wrangler ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout ?? ""}${result.stderr ?? ""}`,
    );
  return result.stdout ?? "";
}

const { where } = options(process.argv.slice(2));
const remote = where.includes("--remote");

/** Every statement's rows, as `wrangler d1 execute --json --command` answers several statements. */
function query(binding: string, sql: string[]): Row[][] {
  const out = wrangler(["d1", "execute", binding, ...where, "--json", "--command", sql.join(";\n")], {
    quiet: true,
  });
  const answers = JSON.parse(out) as { results?: Row[] }[];
  return answers.map((a) => a.results ?? []);
}

// ---- The directory's writes, a file at a time ------------------------------------------------------

const work = mkdtempSync(path.join(tmpdir(), "oracle-upgrade-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
let pending: string[] = [];
let pendingBytes = 0;
let files = 0;

function write(statements: string[]): void {
  for (const statement of statements) {
    pending.push(statement);
    pendingBytes += statement.length;
    if (pendingBytes >= FILE_BYTES) flush();
  }
}

function flush(): void {
  if (!pending.length) return;
  const file = path.join(work, `directory-${++files}.sql`);
  writeFileSync(file, `${pending.join("\n")}\n`);
  console.log(`  writing ${pending.length} statements to the directory (${(pendingBytes / 1024).toFixed(0)} KB)`);
  wrangler(["d1", "execute", DIRECTORY, ...where, "--file", file, "--yes"], { quiet: true });
  pending = [];
  pendingBytes = 0;
}

// ---- The run ---------------------------------------------------------------------------------------

const place = remote ? "the deployed databases" : "the local databases";
console.log(`Upgrading ${place} to shards: ${SHARD_0} becomes shard 0, ${DIRECTORY} is built from it.`);
// The directory, shard 0, then any other shard wrangler.toml binds (new and empty: an upgraded
// installation is ready for its first deploy without a db:migrate of its own).
const bindings = d1Bindings(ROOT).map((d) => d.binding);
if (!bindings.includes(DIRECTORY) || !bindings.includes(SHARD_0))
  fail(`wrangler.toml must bind ${DIRECTORY} and ${SHARD_0} (README "Upgrading a single-database installation")`);
for (const binding of [DIRECTORY, SHARD_0, ...bindings.filter((b) => b !== DIRECTORY && b !== SHARD_0)]) {
  console.log(`\nMigrating ${binding === SHARD_0 ? `shard 0 (${SHARD_0})` : binding}:`);
  wrangler(["d1", "migrations", "apply", binding, ...where]);
}

interface Tally {
  kind: Kind;
  read: number;
  added: number;
  already: number;
  conflicts: string[];
  /** The previous page's last row, while there may be more. */
  last?: Row;
  done: boolean;
}

console.log(`\nCopying into the directory what it lacks (pages of ${PAGE_ROWS} rows):`);
const tallies: Tally[] = KINDS.map((kind) => ({ kind, read: 0, added: 0, already: 0, conflicts: [], done: false }));
const after: string[] = [];
// Every kind's next page in one read of shard 0 and one of the directory, until each has read all of its rows.
for (let round = 1; tallies.some((t) => !t.done); round++) {
  const open = tallies.filter((t) => !t.done);
  const pages = query(
    SHARD_0,
    open.map((t) => t.kind.page(t.last)),
  );
  const withRows = open.map((t, i) => ({ tally: t, rows: pages[i] ?? [] })).filter((p) => p.rows.length);
  const found = withRows.length
    ? query(
        DIRECTORY,
        withRows.map((p) => p.tally.kind.lookup(p.rows)),
      )
    : [];
  const plans: Plan[] = withRows.map((p, i) => p.tally.kind.plan(p.rows, found[i] ?? []));
  for (const [i, tally] of open.entries()) {
    const rows = pages[i] ?? [];
    tally.read += rows.length;
    tally.last = rows.at(-1);
    tally.done = rows.length < PAGE_ROWS;
  }
  for (const [i, { tally }] of withRows.entries()) {
    const plan = plans[i] as Plan;
    tally.added += plan.added;
    tally.already += plan.already;
    tally.conflicts.push(...plan.conflicts);
    write(plan.statements);
    after.push(...plan.last);
  }
  if (round % 10 === 0) console.log(`  read so far: ${tallies.map((t) => `${t.read} ${t.kind.label}`).join(", ")}`);
}
write(after);
flush();

console.log("");
for (const t of tallies) {
  const there = t.already ? `, ${t.already} ${t.already === 1 ? "was" : "were"} there already` : "";
  console.log(`  ${t.kind.label}: ${t.read} in shard 0, ${t.added} added to the directory${there}`);
}
const next = remote ? "Deploy (npm run deploy), then run this once more" : "Start the app (npm start)";
const conflicts = tallies.flatMap((t) => t.conflicts);
const added = tallies.reduce((sum, t) => sum + t.added, 0);
if (conflicts.length) {
  const rows = conflicts.length === 1 ? "1 row was" : `${conflicts.length} rows were`;
  console.error(`\n${rows} left out, because the directory gives each to another account:`);
  for (const c of conflicts) console.error(`  ${c}`);
  console.error("Those accounts cannot sign in by that name until the directory's row is settled by hand.");
  process.exit(2);
}
console.log(
  added
    ? `\nDone: shard 0's accounts are in the directory. ${next}.`
    : "\nNothing to add: the directory already had everything of shard 0 (running this again changes nothing).",
);
