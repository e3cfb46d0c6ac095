// Migrating the local D1 databases, every shard and the directory as wrangler.toml binds them (`npm
// start`, the e2e apps' migrated state). `wrangler d1 migrations
// apply --local` starts a fresh local runtime for every migration: 13 migrations took 16 s and 18 s of
// CPU on an empty state. An empty state gets them in one `wrangler d1 execute --file` instead (3.5 s):
// each migration followed by the row wrangler's own apply adds for it in its `d1_migrations` table, so a
// later `migrations apply` sees them all applied and adds only new ones. A state that exists already
// goes through `migrations apply`, which says what it applies (3.5 s when there is nothing to do).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** wrangler's default (wrangler.toml sets no `migrations_table`). */
const MIGRATIONS_TABLE = "d1_migrations";

/** How to migrate a local database: the wrangler arguments, and whether it is new (all migrations in one file). */
export interface LocalMigration {
  binding: string;
  args: string[];
  allAtOnce: boolean;
}

/** The D1 databases wrangler.toml binds (the directory, DB, SHARD_1 …), each with its migrations folder. */
export function d1Bindings(root: string): { binding: string; migrationsDir: string }[] {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  return toml
    .split("[[d1_databases]]")
    .slice(1)
    .map((block) => ({
      binding: block.match(/^\s*binding\s*=\s*"([^"]+)"/m)?.[1] ?? "",
      migrationsDir: block.match(/^\s*migrations_dir\s*=\s*"([^"]+)"/m)?.[1] ?? "migrations",
    }))
    .filter((d) => d.binding);
}

/**
 * How to bring every local database of `root` (or of `persistTo`, wrangler's --persist-to) up to date with
 * its migrations. Writes the one-file forms under .wrangler/tmp when there is no local D1 state yet.
 */
export function localMigrations(root: string, persistTo?: string): LocalMigration[] {
  const fresh = !existsSync(path.join(persistTo ?? path.join(root, ".wrangler/state"), "v3", "d1"));
  return d1Bindings(root).map(({ binding, migrationsDir }) =>
    localMigration(root, binding, migrationsDir, fresh, persistTo),
  );
}

function localMigration(
  root: string,
  binding: string,
  migrationsDir: string,
  fresh: boolean,
  persistTo?: string,
): LocalMigration {
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  if (!fresh) return { binding, args: ["d1", "migrations", "apply", binding, "--local", ...persist], allAtOnce: false };
  const sql = allMigrationsSql(path.join(root, migrationsDir));
  // Named by its content: starts side by side write the same bytes to the same file.
  const hash = createHash("sha256").update(sql).digest("hex").slice(0, 16);
  const file = path.join(root, ".wrangler/tmp", `all-migrations-${hash}.sql`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, sql);
  return { binding, args: ["d1", "execute", binding, "--local", "--file", file, ...persist], allAtOnce: true };
}

/** Every migration in order, each followed by its row in wrangler's migrations table (as its apply writes it). */
export function allMigrationsSql(migrationsDir: string): string {
  const table = `"${MIGRATIONS_TABLE}"`;
  const files = readdirSync(migrationsDir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return [
    `CREATE TABLE IF NOT EXISTS ${table}(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
    ...files.map(
      (f) =>
        `${readFileSync(path.join(migrationsDir, f), "utf8")}\nINSERT INTO ${table} (name) values ('${f.replace(/'/g, "''")}');`,
    ),
  ].join("\n");
}
