// Applies the D1 migrations to the test database before each test file (readD1Migrations in vitest.config.ts).

import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// The installation's first account becomes its admin (docs/protocol.md "Administration"). The files share
// one D1, so without an account made here whichever test signed up first would be an admin.
await env.DB.prepare(
  "INSERT OR IGNORE INTO users (id, username, password_hash, role) VALUES ('first-account', 'first_account', '-', 'admin')",
).run();
