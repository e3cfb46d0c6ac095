import { defineConfig } from "drizzle-kit";

// The directory's migrations (d1/directory-schema.ts); the shards' are drizzle.config.ts's.
export default defineConfig({
  dialect: "sqlite",
  schema: "./d1/directory-schema.ts",
  out: "./migrations/directory",
});
