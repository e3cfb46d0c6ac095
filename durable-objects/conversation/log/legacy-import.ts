// A conversation from before the log moved into its object still has its messages in D1. The first
// time its object opens, it copies them into its own SQLite in one transaction, together with the
// mark that it did, so it happens once and never half; the D1 rows are then deleted through the index
// outbox (retried until it lands), which also indexes the imported text for search.
import { legacyMessages } from "../../../d1/legacy-messages";
import { insertMessage, readState, writeState } from "./local-tables";

const IMPORTED = "legacy_imported";
export const LEGACY_PURGE_PENDING = "legacy_purge_pending";

/** How many messages were moved in (0 for a conversation that never had D1 rows, or on later opens). */
export async function importLegacyMessages(
  storage: DurableObjectStorage,
  d1: D1Database,
  conversationId: string,
): Promise<number> {
  const sql = storage.sql;
  if (readState(sql, IMPORTED)) return 0;
  const rows = await legacyMessages(d1, conversationId);
  return storage.transactionSync(() => {
    // Another event cannot have run meanwhile (the object opens under blockConcurrencyWhile), but a
    // log that already has messages is never merged into.
    const empty = !sql.exec("SELECT 1 FROM messages LIMIT 1").toArray().length;
    const moved = empty ? rows : [];
    for (const row of moved) insertMessage(sql, row);
    writeState(sql, IMPORTED, new Date().toISOString());
    if (moved.length) writeState(sql, LEGACY_PURGE_PENDING, "1");
    return moved.length;
  });
}
