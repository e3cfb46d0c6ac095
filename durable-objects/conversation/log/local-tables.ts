// The conversation object's own SQLite (ctx.storage.sql): the message log, and a few named values
// (the index outbox's watermark, whether legacy D1 rows were imported). Created on first use; a later
// change adds its statements here, each safe to run again.
export function ensureLocalTables(sql: SqlStorage): void {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS messages (
       seq INTEGER PRIMARY KEY, id TEXT NOT NULL, role TEXT NOT NULL, created_at TEXT NOT NULL, payload TEXT NOT NULL,
       parent INTEGER
     )`,
  );
  sql.exec("CREATE TABLE IF NOT EXISTS local_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  addParentColumn(sql);
  // A chat's client_id is looked up before its turn starts (log-queries.ts userMessageSent).
  sql.exec(
    `CREATE INDEX IF NOT EXISTS messages_client_id ON messages (json_extract(payload, '$.client_id'))
       WHERE role = 'user'`,
  );
}

/**
 * Branches (docs/protocol.md "Branches"): each message records the message it follows. A log from before
 * branches was one line, so each of its messages follows the one before it. The index finds the newest
 * message below one (a switch) without reading the log.
 */
function addParentColumn(sql: SqlStorage): void {
  const has = sql.exec("SELECT 1 FROM pragma_table_info('messages') WHERE name = 'parent'").toArray().length > 0;
  if (!has) {
    sql.exec("ALTER TABLE messages ADD COLUMN parent INTEGER");
    sql.exec("UPDATE messages SET parent = seq - 1");
  }
  sql.exec("CREATE INDEX IF NOT EXISTS messages_parent ON messages (parent)");
}

/**
 * A message as the log stores it: its envelope in columns, the rest of it as JSON. `parent` is the
 * message it follows (0: none); absent (rows from before branches), the one before it.
 */
export type MessageRow = {
  seq: number;
  id: string;
  role: string;
  created_at: string;
  payload: string;
  parent?: number;
};

export function insertMessage(sql: SqlStorage, row: MessageRow): void {
  sql.exec(
    "INSERT INTO messages (seq, id, role, created_at, payload, parent) VALUES (?, ?, ?, ?, ?, ?)",
    row.seq,
    row.id,
    row.role,
    row.created_at,
    row.payload,
    row.parent ?? row.seq - 1,
  );
}

export function readState(sql: SqlStorage, key: string): string | undefined {
  const row = sql.exec<{ value: string }>("SELECT value FROM local_state WHERE key = ?", key).toArray()[0];
  return row?.value;
}

export function writeState(sql: SqlStorage, key: string, value: string): void {
  sql.exec(
    "INSERT INTO local_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

export function deleteState(sql: SqlStorage, key: string): void {
  sql.exec("DELETE FROM local_state WHERE key = ?", key);
}
