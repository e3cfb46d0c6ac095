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

function wrangler(wranglerArgs: string[]): void {
  const result = spawnSync("npx", ["wrangler", ...wranglerArgs], {
    stdio: "inherit",
    env: { ...process.env, CI: "true" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!local) {
  for (const { binding } of d1Bindings(process.cwd())) {
    console.log(`\n${binding}:`);
    wrangler(["d1", "migrations", "apply", binding, "--remote", ...extra]);
  }
} else if (!(args.includes("--if-new") && existsSync(".wrangler/state/v3/d1"))) {
  for (const migration of localMigrations(process.cwd())) {
    if (migration.allAtOnce) console.log(`migrating the new local ${migration.binding}: every migration in one go`);
    wrangler(migration.args);
  }
}
