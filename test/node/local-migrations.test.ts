// scripts/local-migrations.ts: a new local database gets every migration in one wrangler run, recorded
// as wrangler's own apply records them; one that exists goes through `wrangler d1 migrations apply`.
// (test/e2e/start.test.ts runs both against wrangler: the second start finds nothing to apply.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allMigrationsSql, localMigrations } from "../../scripts/local-migrations.ts";

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

/** A project with these shard migrations, and wrangler.toml's D1 bindings: the directory and two shards. */
function project(migrations: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "oracle-migrations-"));
  made.push(root);
  mkdirSync(path.join(root, "migrations/directory"), { recursive: true });
  for (const [name, sql] of Object.entries(migrations)) writeFileSync(path.join(root, "migrations", name), sql);
  writeFileSync(path.join(root, "migrations/directory/0000_dir.sql"), "CREATE TABLE directory_users (username TEXT);");
  writeFileSync(
    path.join(root, "wrangler.toml"),
    [
      ["DIRECTORY", "migrations/directory"],
      ["DB", "migrations"],
      ["SHARD_1", "migrations"],
    ]
      .map(
        ([binding, dir]) => `[[d1_databases]]\nbinding = "${binding}"\ndatabase_id = "x"\nmigrations_dir = "${dir}"\n`,
      )
      .join("\n"),
  );
  return root;
}

describe("local migrations", () => {
  it("puts every migration in name order, each followed by its row in wrangler's d1_migrations", () => {
    const root = project({
      "0002_b.sql": "ALTER TABLE a ADD b TEXT;",
      "0001_a.sql": "CREATE TABLE a (id TEXT);",
      "notes.txt": "not a migration",
    });
    const sql = allMigrationsSql(path.join(root, "migrations"));
    expect(sql).toMatch(/^CREATE TABLE IF NOT EXISTS "d1_migrations"\(/);
    const order = ["CREATE TABLE a", "'0001_a.sql'", "ALTER TABLE a", "'0002_b.sql'"].map((s) => sql.indexOf(s));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(sql).toContain(`INSERT INTO "d1_migrations" (name) values ('0002_b.sql');`);
    expect(sql).not.toContain("not a migration");
  });

  it("quotes a migration's name as SQL", () => {
    const root = project({ "0001_it's.sql": "SELECT 1;" });
    expect(allMigrationsSql(path.join(root, "migrations"))).toContain("values ('0001_it''s.sql');");
  });

  it("migrates every database wrangler.toml binds: the one file each on a new state, wrangler's apply once one exists", () => {
    const root = project({ "0001_a.sql": "CREATE TABLE a (id TEXT);" });
    const persist = path.join(root, "state");
    const fresh = localMigrations(root, persist);
    expect(fresh.map((m) => m.binding)).toEqual(["DIRECTORY", "DB", "SHARD_1"]);
    for (const migration of fresh) {
      expect(migration.allAtOnce).toBe(true);
      expect(migration.args.slice(0, 5)).toEqual(["d1", "execute", migration.binding, "--local", "--file"]);
      expect(migration.args.slice(-2)).toEqual(["--persist-to", persist]);
    }
    // Each database gets its own folder's migrations: the directory's, and the shards' alike.
    const [directory, shard0] = fresh.map((m) => readFileSync(m.args[5] ?? "", "utf8"));
    expect(directory).toBe(allMigrationsSql(path.join(root, "migrations/directory")));
    expect(shard0).toBe(allMigrationsSql(path.join(root, "migrations")));

    mkdirSync(path.join(persist, "v3", "d1"), { recursive: true });
    expect(localMigrations(root, persist)[1]).toEqual({
      binding: "DB",
      args: ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist],
      allAtOnce: false,
    });
    // Without --persist-to: wrangler's own .wrangler/state under the project.
    mkdirSync(path.join(root, ".wrangler/state/v3/d1"), { recursive: true });
    expect(localMigrations(root)[0]?.args).toEqual(["d1", "migrations", "apply", "DIRECTORY", "--local"]);
  });
});
