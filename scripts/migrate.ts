// Applies the D1 migrations to every database wrangler.toml binds, the directory and each shard:
//   npm run db:migrate -- --remote   the deployed databases (`wrangler d1 migrations apply <binding> --remote`);
//                                    a shard added to wrangler.toml is migrated by this before the deploy
//   npm run db:migrate -- --local    the local ones, as `npm start` does (scripts/local-migrations.ts)
// After `npm run build` (postbuild) it runs with --local --if-new: a checkout with no local state gets its
// databases made, so a tool that builds and then runs `wrangler dev` itself (the side-by-side benchmark,
// which migrates only `DB` as before shards) finds the directory and every shard ready.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { d1Bindings, localMigrations } from "./local-migrations.ts";

const args = process.argv.slice(2);
const local = args.includes("--local");
const extra = args.filter((arg) => !["--local", "--remote", "--if-new"].includes(arg));

/** Runs wrangler (CI=true: no confirmation prompt); `quiet`: its output only when it fails. */
function wrangler(wranglerArgs: string[], quiet = false): void {
  const result = spawnSync("npx", ["wrangler", ...wranglerArgs], {
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  if (result.status === 0) return;
  if (quiet) process.stderr.write(`${result.stdout}${result.stderr}`);
  process.exit(result.status ?? 1);
}

if (!local) {
  for (const { binding } of d1Bindings(process.cwd())) {
    console.log(`\n${binding}:`);
    wrangler(["d1", "migrations", "apply", binding, "--remote", ...extra]);
  }
} else {
  // --persist-to DIR: wrangler's local state somewhere else than .wrangler/state.
  const at = args.indexOf("--persist-to");
  const persistTo = at >= 0 ? args[at + 1] : undefined;
  const state = `${persistTo ?? ".wrangler/state"}/v3/d1`;
  if (args.includes("--if-new") && existsSync(state)) process.exit(0);
  for (const migration of localMigrations(process.cwd(), persistTo)) {
    wrangler(migration.args, true);
    console.log(`local ${migration.binding}: ${migration.allAtOnce ? "every migration in one go" : "up to date"}`);
  }
}
