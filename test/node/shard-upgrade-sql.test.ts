// scripts/shard-upgrade-sql.ts against real SQLite (node:sqlite): a shard made by today's migrations and a
// directory by its own, the upgrade's pages, lookups and writes run as scripts/upgrade-to-shards.ts runs
// them through wrangler. (test/e2e/upgrade-to-shards.test.ts runs the command itself on a database made
// by the commit before shards.)

import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { allMigrationsSql } from "../../scripts/local-migrations.ts";
import { audit, insertOrIgnore, KINDS, type Kind, type Row, sqlValue } from "../../scripts/shard-upgrade-sql.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SHARD_SQL = allMigrationsSql(path.join(ROOT, "migrations"));
const DIRECTORY_SQL = allMigrationsSql(path.join(ROOT, "migrations/directory"));

const rows = (db: DatabaseSync, sql: string) => db.prepare(sql).all() as Row[];

function databases() {
  const shard = new DatabaseSync(":memory:");
  shard.exec(SHARD_SQL);
  const directory = new DatabaseSync(":memory:");
  directory.exec(DIRECTORY_SQL);
  return { shard, directory };
}

/** The odd usernames and subjects the quoting must carry (the app allows fewer; the SQL must not care). */
const ODD = ["o'brien", "robert'); DROP TABLE directory_users;--", "zoë ☃", "back\\slash", "new\nline", "''"];

/** A shard as an installation before shards left it. */
function fill(shard: DatabaseSync) {
  const user = shard.prepare(
    "INSERT INTO users (id, username, password_hash, role, status, created_at) VALUES (?, ?, '', ?, ?, ?)",
  );
  user.run("u-admin", "alice", "admin", "active", "2026-01-01T00:00:00.000Z");
  user.run("u-gone-admin", "ex_admin", "admin", "disabled", "2026-01-02T00:00:00.000Z");
  user.run("u-pending", "pat", "user", "pending", "2026-01-03T00:00:00.000Z");
  ODD.forEach((name, i) => {
    user.run(`u-odd-${i}`, name, "user", "active", `2026-02-0${i + 1}T00:00:00.000Z`);
  });
  const passkey = shard.prepare("INSERT INTO passkeys (id, user_id, name, public_key) VALUES (?, ?, 'k', 'pk')");
  passkey.run("cred-1", "u-admin");
  passkey.run("cred-'2", "u-odd-0");
  const identity = shard.prepare("INSERT INTO linked_identities (provider, subject, user_id) VALUES (?, ?, ?)");
  identity.run("github", "42", "u-admin");
  identity.run("github", "o'7", "u-pending");
  identity.run("google", "42", "u-odd-1");
  shard
    .prepare(
      "INSERT INTO invites (id, token_hash, note, created_by, created_at, expires_at, used_by, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run("inv-1", "hash-1", "for carol's sister", "u-admin", "2026-03-01", "2026-03-08", null, null);
  const entry = shard.prepare("INSERT INTO admin_audit (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)");
  entry.run("2026-03-01T00:00:00.000Z", "alice", "create_invite", null, '{"note":"for carol\'s sister"}');
  entry.run("2026-03-02T00:00:00.000Z", "alice", "approve", "pat", "{}");
}

/** What scripts/upgrade-to-shards.ts does, with SQLite in place of wrangler: every kind, page by page. */
function upgrade(shard: DatabaseSync, directory: DatabaseSync, pageRows = 5000, kinds: Kind[] = KINDS) {
  const tally: Record<string, { added: number; already: number; conflicts: string[] }> = {};
  const statements: string[] = [];
  const last: string[] = [];
  for (const kind of kinds) {
    const t = { added: 0, already: 0, conflicts: [] as string[] };
    tally[kind.label] = t;
    for (let after: Row | undefined, page: Row[]; ; after = page.at(-1)) {
      page = rows(shard, kind.page(after, pageRows));
      if (!page.length) break;
      const plan = kind.plan(page, rows(directory, kind.lookup(page)));
      t.added += plan.added;
      t.already += plan.already;
      t.conflicts.push(...plan.conflicts);
      statements.push(...plan.statements);
      last.push(...plan.last);
      if (page.length < pageRows) break;
    }
  }
  for (const statement of [...statements, ...last]) directory.exec(statement);
  return { tally, statements: [...statements, ...last] };
}

const snapshot = (directory: DatabaseSync) => ({
  users: rows(directory, "SELECT * FROM directory_users ORDER BY username"),
  passkeys: rows(directory, "SELECT * FROM directory_passkeys ORDER BY credential_id"),
  identities: rows(directory, "SELECT * FROM directory_identities ORDER BY provider, subject"),
  admins: rows(directory, "SELECT * FROM directory_admins ORDER BY user_id"),
  invites: rows(directory, "SELECT * FROM invites ORDER BY id"),
  audit: rows(directory, "SELECT * FROM admin_audit ORDER BY id"),
});

describe("sqlValue", () => {
  it("makes literals SQLite reads back as the same value, whatever the quotes and characters", () => {
    const db = new DatabaseSync(":memory:");
    for (const value of [...ODD, "", "tab\there", 0, -7, 12.5, null]) {
      const row = db.prepare(`SELECT ${sqlValue(value)} AS v`).get() as { v: unknown };
      expect(row.v).toEqual(value);
    }
    // A NUL goes in whole (its bytes; SQLite's readers stop at it, so compared as hex).
    const nul = db.prepare(`SELECT hex(${sqlValue("a\0b")}) AS h, typeof(${sqlValue("a\0b")}) AS t`).get();
    expect(nul).toEqual({ h: "610062", t: "text" });
    expect(sqlValue(true)).toBe("1");
    expect(sqlValue(undefined)).toBe("NULL");
    expect(() => sqlValue(Number.NaN)).toThrow();
  });
});

describe("insertOrIgnore", () => {
  it("chunks rows into statements of at most maxRows rows and about maxBytes, every row once", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
    const input = Array.from({ length: 250 }, (_, i) => [`k${i}`, i % 50 === 0 ? "x".repeat(3000) : `it's ${i}`]);
    const byRows = insertOrIgnore("t", ["k", "v"], input, { maxRows: 100 });
    expect(byRows).toHaveLength(3);
    const bySize = insertOrIgnore("t", ["k", "v"], input, { maxRows: 100, maxBytes: 4000 });
    expect(bySize.length).toBeGreaterThan(5);
    for (const statement of bySize) expect(statement.length).toBeLessThan(4000 + 3100);
    for (const statement of bySize) db.exec(statement);
    expect(rows(db, "SELECT COUNT(*) AS n FROM t")[0]?.n).toBe(250);
    expect(insertOrIgnore("t", ["k", "v"], [])).toEqual([]);
    expect(() => insertOrIgnore("t", ["k", "v"], [["only one"]])).toThrow(/1 values for 2 columns/);
  });

  it("ignores a row whose key is there, so a statement run twice changes nothing", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)");
    const [statement] = insertOrIgnore("t", ["k", "v"], [["a", "first"]]);
    db.exec(statement as string);
    db.exec(statement as string);
    db.exec(insertOrIgnore("t", ["k", "v"], [["a", "second"]])[0] as string);
    expect(rows(db, "SELECT k, v FROM t")).toEqual([{ k: "a", v: "first" }]);
  });
});

describe("building the directory from shard 0", () => {
  it("copies every account, passkey and linked sign-in as shard 0's, the active admins, invites and the audit as they are", () => {
    const { shard, directory } = databases();
    fill(shard);
    const { tally } = upgrade(shard, directory);
    const dir = snapshot(directory);
    expect(dir.users).toHaveLength(3 + ODD.length);
    expect(dir.users.find((u) => u.username === "alice")).toEqual({
      username: "alice",
      user_id: "u-admin",
      shard: 0,
      created_at: "2026-01-01T00:00:00.000Z",
    });
    for (const [i, name] of ODD.entries())
      expect(dir.users).toContainEqual(expect.objectContaining({ username: name, user_id: `u-odd-${i}` }));
    expect(dir.passkeys).toEqual([
      { credential_id: "cred-'2", user_id: "u-odd-0", shard: 0 },
      { credential_id: "cred-1", user_id: "u-admin", shard: 0 },
    ]);
    expect(dir.identities).toEqual([
      { provider: "github", subject: "42", user_id: "u-admin", shard: 0 },
      { provider: "github", subject: "o'7", user_id: "u-pending", shard: 0 },
      { provider: "google", subject: "42", user_id: "u-odd-1", shard: 0 },
    ]);
    // A disabled admin is not one of the active admins the "never no admin" rule counts.
    expect(dir.admins).toEqual([{ user_id: "u-admin", shard: 0 }]);
    expect(dir.invites).toEqual(rows(shard, "SELECT * FROM invites"));
    expect(dir.audit).toEqual(rows(shard, "SELECT * FROM admin_audit ORDER BY id"));
    expect(tally.accounts).toEqual({ added: 3 + ODD.length, already: 0, conflicts: [] });
  });

  it("run again, finds everything there, writes nothing and changes nothing", () => {
    const { shard, directory } = databases();
    fill(shard);
    const first = upgrade(shard, directory);
    const before = snapshot(directory);
    // The first run's statements again (INSERT OR IGNORE): nothing changes.
    for (const statement of first.statements) directory.exec(statement);
    expect(snapshot(directory)).toEqual(before);
    const second = upgrade(shard, directory);
    expect(second.statements).toEqual([]);
    for (const kind of KINDS) expect(second.tally[kind.label]?.added).toBe(0);
    expect(second.tally.accounts?.already).toBe(3 + ODD.length);
    expect(second.tally["audit log entries"]?.already).toBe(2);
    expect(snapshot(directory)).toEqual(before);
  });

  it("pages by key, composite keys included: pages of 2 rows give what one page gives", () => {
    const whole = databases();
    fill(whole.shard);
    upgrade(whole.shard, whole.directory);
    const paged = databases();
    fill(paged.shard);
    const { tally } = upgrade(paged.shard, paged.directory, 2);
    expect(snapshot(paged.directory)).toEqual(snapshot(whole.directory));
    expect(tally["linked sign-ins"]).toEqual({ added: 3, already: 0, conflicts: [] });
    expect(KINDS[0]?.page({ username: "o'brien" }, 2)).toBe(
      "SELECT id, username, created_at FROM users WHERE (username) > ('o''brien') ORDER BY username LIMIT 2",
    );
  });

  it("names a username the directory gives to another account, and leaves that row as it is", () => {
    const { shard, directory } = databases();
    fill(shard);
    directory.exec("INSERT INTO directory_users (username, user_id, shard) VALUES ('pat', 'someone-else', 1)");
    const { tally } = upgrade(shard, directory);
    expect(tally.accounts?.conflicts).toEqual([
      "the username 'pat' (account u-pending of shard 0) is in the directory for another account, someone-else",
    ]);
    expect(rows(directory, "SELECT user_id FROM directory_users WHERE username = 'pat'")).toEqual([
      { user_id: "someone-else" },
    ]);
  });

  it("gives an audit entry a new id when the directory gave its id to another entry since, and finds it there the next time", () => {
    const { shard, directory } = databases();
    fill(shard);
    upgrade(shard, directory, 5000, [audit]);
    // The new Worker audits an action (id 3), then the old one, still running, one of its own (id 3 too).
    directory.exec(
      `INSERT INTO admin_audit (at, actor, action, detail) VALUES ('2026-03-03T00:00:00.000Z', 'alice', 'promote', '{}')`,
    );
    shard.exec(
      `INSERT INTO admin_audit (at, actor, action, detail) VALUES ('2026-03-03T00:00:01.000Z', 'alice', 'disable', '{}')`,
    );
    const second = upgrade(shard, directory, 5000, [audit]);
    expect(second.tally["audit log entries"]).toEqual({ added: 1, already: 2, conflicts: [] });
    expect(rows(directory, "SELECT id, action FROM admin_audit ORDER BY id")).toEqual([
      { id: 1, action: "create_invite" },
      { id: 2, action: "approve" },
      { id: 3, action: "promote" },
      { id: 4, action: "disable" },
    ]);
    const third = upgrade(shard, directory, 5000, [audit]);
    expect(third.tally["audit log entries"]).toEqual({ added: 0, already: 3, conflicts: [] });
  });
});
