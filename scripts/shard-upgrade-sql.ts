// The SQL of scripts/upgrade-to-shards.ts, with nothing of wrangler in it: which rows of shard 0 (the one
// database of an installation made before shards) it reads, page by page in key order; what it asks the
// directory about them; and the INSERT OR IGNORE statements that copy what the directory lacks. A run
// again finds every row there already and writes nothing; a row that meets another account's (a username
// taken in the directory since) is a conflict to report, never overwritten.

/** One row as `wrangler d1 execute --json` answers it. */
export type Row = Record<string, unknown>;

/** Rows read from a database per query: a large installation's tables go page by page. */
export const PAGE_ROWS = 5000;

/** A SQL literal: D1's `execute --file` takes no bound parameters. */
export function sqlValue(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`not a SQL number: ${value}`);
    return String(value);
  }
  const text = String(value);
  // A NUL would end the statement's text where SQLite reads it: such a string goes as its UTF-8 bytes.
  if (text.includes("\0")) return `CAST(X'${Buffer.from(text, "utf8").toString("hex")}' AS TEXT)`;
  return `'${text.replaceAll("'", "''")}'`;
}

/** `(a, b) > ('x', 'y')` for a keyset page: the rows after `after` in key order. */
const after = (key: string[], row: Row) => `(${key.join(", ")}) > (${key.map((k) => sqlValue(row[k])).join(", ")})`;

/** `(a, b) BETWEEN (…first) AND (…last)`: the directory rows that may meet a page's (keys named as the directory's). */
const between = (key: string[], first: unknown[], last: unknown[]) =>
  `(${key.join(", ")}) BETWEEN (${first.map(sqlValue).join(", ")}) AND (${last.map(sqlValue).join(", ")})`;

/** INSERT OR IGNORE of `rows` into `table`, at most `maxRows` rows and about `maxBytes` of SQL a statement. */
export function insertOrIgnore(
  table: string,
  columns: string[],
  rows: unknown[][],
  { maxRows = 100, maxBytes = 50_000 }: { maxRows?: number; maxBytes?: number } = {},
): string[] {
  const head = `INSERT OR IGNORE INTO ${table} (${columns.join(", ")}) VALUES\n`;
  const statements: string[] = [];
  let tuples: string[] = [];
  let bytes = head.length;
  const flush = () => {
    if (tuples.length) statements.push(`${head}${tuples.join(",\n")};`);
    tuples = [];
    bytes = head.length;
  };
  for (const row of rows) {
    if (row.length !== columns.length) throw new Error(`${table}: ${row.length} values for ${columns.length} columns`);
    const tuple = `(${row.map(sqlValue).join(", ")})`;
    if (tuples.length >= maxRows || (tuples.length && bytes + tuple.length + 2 > maxBytes)) flush();
    tuples.push(tuple);
    bytes += tuple.length + 2;
  }
  flush();
  return statements;
}

/** What a page of shard 0's rows comes to against the directory. */
export interface Plan {
  /** Statements that add what the directory lacks. */
  statements: string[];
  /** Statements to run after every other (the audit entries whose id the directory had given to another). */
  last: string[];
  added: number;
  already: number;
  /** Rows the directory has for another account, in words. */
  conflicts: string[];
}

/** One kind of row the upgrade copies: how shard 0 is paged, what the directory is asked, what is written. */
export interface Kind {
  /** In the report: "accounts", "passkeys", … */
  label: string;
  /** The page of shard 0's rows after `last` (the previous page's last row), in key order. */
  page(last: Row | undefined, limit?: number): string;
  /** The directory's rows that a page's rows could meet (a page is never empty). */
  lookup(rows: Row[]): string;
  plan(rows: Row[], found: Row[]): Plan;
}

const SHARD = 0;
const plan = (statements: string[], added: number, already: number, conflicts: string[] = []): Plan => ({
  statements,
  last: [],
  added,
  already,
  conflicts,
});
const first = (rows: Row[]) => rows[0] as Row;
const final = (rows: Row[]) => rows[rows.length - 1] as Row;

/**
 * A kind whose shard rows map one to one onto directory rows by a unique key: the directory has a row
 * with the key (the same account's: there already; another's: a conflict) or not (added).
 */
function keyed(spec: {
  label: string;
  select: string;
  from: string;
  where?: string;
  /** The key in the shard's column names, and the same key in the directory's. */
  shardKey: string[];
  directoryKey: string[];
  directoryTable: string;
  /** The directory columns written, and a shard row's values for them. */
  columns: string[];
  values(row: Row): unknown[];
  /** Whose the row is, to tell "there already" from a conflict (absent: a key alone says it is the same). */
  owner?: { shard: string; directory: string };
  conflict?(row: Row, other: Row): string;
}): Kind {
  const keyOf = (row: Row, names: string[]) => JSON.stringify(names.map((n) => row[n]));
  return {
    label: spec.label,
    page: (last, limit = PAGE_ROWS) => {
      const conditions = [spec.where, last && after(spec.shardKey, last)].filter(Boolean);
      const where = conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "";
      return `SELECT ${spec.select} FROM ${spec.from}${where} ORDER BY ${spec.shardKey.join(", ")} LIMIT ${limit}`;
    },
    lookup: (rows) => {
      const key = (row: Row) => spec.shardKey.map((k) => row[k]);
      const owner = spec.owner ? `, ${spec.owner.directory}` : "";
      return `SELECT ${spec.directoryKey.join(", ")}${owner} FROM ${spec.directoryTable} WHERE ${between(spec.directoryKey, key(first(rows)), key(final(rows)))}`;
    },
    plan: (rows, found) => {
      const there = new Map(found.map((row) => [keyOf(row, spec.directoryKey), row]));
      const fresh: Row[] = [];
      const conflicts: string[] = [];
      let already = 0;
      for (const row of rows) {
        const other = there.get(keyOf(row, spec.shardKey));
        if (!other) fresh.push(row);
        else if (!spec.owner || other[spec.owner.directory] === row[spec.owner.shard]) already++;
        else conflicts.push(spec.conflict?.(row, other) ?? `${spec.label}: ${keyOf(row, spec.shardKey)}`);
      }
      const statements = insertOrIgnore(spec.directoryTable, spec.columns, fresh.map(spec.values));
      return plan(statements, fresh.length, already, conflicts);
    },
  };
}

export const accounts = keyed({
  label: "accounts",
  select: "id, username, created_at",
  from: "users",
  shardKey: ["username"],
  directoryKey: ["username"],
  directoryTable: "directory_users",
  columns: ["username", "user_id", "shard", "created_at"],
  values: (row) => [row.username, row.id, SHARD, row.created_at],
  owner: { shard: "id", directory: "user_id" },
  conflict: (row, other) =>
    `the username ${sqlValue(row.username)} (account ${row.id} of shard 0) is in the directory for another account, ${other.user_id}`,
});

export const passkeys = keyed({
  label: "passkeys",
  select: "id, user_id",
  from: "passkeys",
  shardKey: ["id"],
  directoryKey: ["credential_id"],
  directoryTable: "directory_passkeys",
  columns: ["credential_id", "user_id", "shard"],
  values: (row) => [row.id, row.user_id, SHARD],
  owner: { shard: "user_id", directory: "user_id" },
  conflict: (row, other) =>
    `the passkey ${sqlValue(row.id)} of account ${row.user_id} is in the directory for another account, ${other.user_id}`,
});

export const identities = keyed({
  label: "linked sign-ins",
  select: "provider, subject, user_id",
  from: "linked_identities",
  shardKey: ["provider", "subject"],
  directoryKey: ["provider", "subject"],
  directoryTable: "directory_identities",
  columns: ["provider", "subject", "user_id", "shard"],
  values: (row) => [row.provider, row.subject, row.user_id, SHARD],
  owner: { shard: "user_id", directory: "user_id" },
  conflict: (row, other) =>
    `the ${sqlValue(row.provider)} sign-in ${sqlValue(row.subject)} of account ${row.user_id} is in the directory for another account, ${other.user_id}`,
});

export const pushEndpoints = keyed({
  label: "push endpoints",
  select: "endpoint, user_id, id",
  from: "push_subscriptions",
  shardKey: ["endpoint"],
  directoryKey: ["endpoint"],
  directoryTable: "directory_push_endpoints",
  columns: ["endpoint", "user_id", "shard", "subscription_id"],
  values: (row) => [row.endpoint, row.user_id, SHARD, row.id],
  // A browser saved since by another account (on the new Worker) is that account's now: not a conflict.
});

export const admins = keyed({
  label: "active admins",
  select: "id",
  from: "users",
  where: "role = 'admin' AND status = 'active'",
  shardKey: ["id"],
  directoryKey: ["user_id"],
  directoryTable: "directory_admins",
  columns: ["user_id", "shard"],
  values: (row) => [row.id, SHARD],
});

const INVITE_COLUMNS = ["id", "token_hash", "note", "created_by", "created_at", "expires_at", "used_by", "used_at"];
export const invites = keyed({
  label: "invites",
  select: INVITE_COLUMNS.join(", "),
  from: "invites",
  shardKey: ["id"],
  directoryKey: ["id"],
  directoryTable: "invites",
  columns: INVITE_COLUMNS,
  values: (row) => INVITE_COLUMNS.map((c) => row[c]),
});

const AUDIT_COLUMNS = ["id", "at", "actor", "action", "target", "detail"];
const auditContent = (row: Row) => JSON.stringify(AUDIT_COLUMNS.slice(1).map((c) => row[c] ?? null));

/**
 * The admins' audit log, entry by entry as it was, ids kept. An entry is there already when the directory
 * has one with the same time, actor, action, target and details (whatever its id); one whose id the
 * directory gave since to another entry (the new Worker ran before this) goes in with a new id, after
 * every other write so it cannot take a later entry's.
 */
export const audit: Kind = {
  label: "audit log entries",
  page: (last, limit = PAGE_ROWS) =>
    `SELECT ${AUDIT_COLUMNS.join(", ")} FROM admin_audit${last ? ` WHERE id > ${sqlValue(last.id)}` : ""} ORDER BY id LIMIT ${limit}`,
  lookup: (rows) => {
    const times = rows.map((row) => String(row.at)).sort();
    return `SELECT ${AUDIT_COLUMNS.join(", ")} FROM admin_audit WHERE at BETWEEN ${sqlValue(times[0])} AND ${sqlValue(times.at(-1))} OR id BETWEEN ${sqlValue(first(rows).id)} AND ${sqlValue(final(rows).id)}`;
  },
  plan: (rows, found) => {
    const contents = new Set(found.map(auditContent));
    const ids = new Set(found.map((row) => Number(row.id)));
    const fresh = rows.filter((row) => !contents.has(auditContent(row)));
    const kept = fresh.filter((row) => !ids.has(Number(row.id)));
    const renumbered = fresh.filter((row) => ids.has(Number(row.id)));
    const columns = AUDIT_COLUMNS.slice(1);
    return {
      statements: insertOrIgnore(
        "admin_audit",
        AUDIT_COLUMNS,
        kept.map((row) => AUDIT_COLUMNS.map((c) => row[c])),
      ),
      last: insertOrIgnore(
        "admin_audit",
        columns,
        renumbered.map((row) => columns.map((c) => row[c])),
      ),
      added: fresh.length,
      already: rows.length - fresh.length,
      conflicts: [],
    };
  },
};

/** Every kind, in the order the upgrade copies them. */
export const KINDS: Kind[] = [accounts, passkeys, identities, pushEndpoints, admins, invites, audit];
