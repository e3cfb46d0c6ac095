// `npm run db:migrate -- --remote` (or `--local`): applies the migrations to every D1 database wrangler.toml
// binds, the directory and each shard, with `wrangler d1 migrations apply`. A shard added to wrangler.toml
// is migrated by the same command before the deploy that starts using it.
import { spawnSync } from "node:child_process";
import { d1Bindings } from "./local-migrations.ts";

const where = process.argv.includes("--local") ? "--local" : "--remote";
const extra = process.argv.slice(2).filter((arg) => arg !== "--local" && arg !== "--remote");
for (const { binding } of d1Bindings(process.cwd())) {
  console.log(`\n${binding}:`);
  const result = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", binding, where, ...extra], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
