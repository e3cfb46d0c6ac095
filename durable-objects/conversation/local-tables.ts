// The conversation object's own SQLite (ctx.storage.sql): the message log, and a few named values
// (the index outbox's watermark, whether legacy D1 rows were imported). Created on first use; a later
// change adds its statements here, each safe to run again.
export function ensureLocalTables(sql: SqlStorage): void {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS messages (
       seq INTEGER PRIMARY KEY, id TEXT NOT NULL, role TEXT NOT NULL, created_at TEXT NOT NULL, payload TEXT NOT NULL
     )`,
  );
  sql.exec("CREATE TABLE IF NOT EXISTS local_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

/** A message as the log stores it: its envelope in columns, the rest of it as JSON. */
export type MessageRow = { seq: number; id: string; role: string; created_at: string; payload: string };

export function insertMessage(sql: SqlStorage, row: MessageRow): void {
  sql.exec(
    "INSERT INTO messages (seq, id, role, created_at, payload) VALUES (?, ?, ?, ?, ?)",
    row.seq,
    row.id,
    row.role,
    row.created_at,
    row.payload,
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
