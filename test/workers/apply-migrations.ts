// Applies the D1 migrations to every shard and to the directory before each test file (readD1Migrations in
// vitest.config.ts): three shards here (wrangler.toml's two and SHARD_2), so every test's users are spread.
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    TEST_DIRECTORY_MIGRATIONS: import("cloudflare:test").D1Migration[];
    SHARD_1: D1Database;
    SHARD_2: D1Database;
  }
}

export const SHARDS = [env.DB, env.SHARD_1, env.SHARD_2];

await Promise.all([
  applyD1Migrations(env.DIRECTORY, env.TEST_DIRECTORY_MIGRATIONS),
  ...SHARDS.map((shard) => applyD1Migrations(shard, env.TEST_MIGRATIONS)),
]);

// The installation's first account becomes its admin (docs/protocol.md "Administration"). The files share
// one directory, so without an account made here whichever test signed up first would be an admin.
await env.DIRECTORY.prepare(
  "INSERT OR IGNORE INTO directory_users (username, user_id, shard) VALUES ('first_account', 'first-account', 0)",
).run();
await env.DIRECTORY.prepare(
  "INSERT OR IGNORE INTO directory_admins (user_id, shard) VALUES ('first-account', 0)",
).run();
await env.DB.prepare(
  "INSERT OR IGNORE INTO users (id, username, password_hash, role) VALUES ('first-account', 'first_account', '-', 'admin')",
).run();
