// Applies the D1 migrations to the test database before each test file (readD1Migrations in vitest.config.ts).

import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

declare global {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
