// Built-in agent writes done at most once per idempotency key (agent/tools/tool.ts effectKey): the
// write's statements and the insert of the key's row run in one D1 batch, which is a transaction. When
// the key is already there, its unique violation rolls the whole batch back, so a call re-run after a
// restart finds the key and the write is not done twice.

/** How long a key is kept: a restart re-runs its calls within minutes; older rows are pruned. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

export type Effect<T> = { repeated: false; results: D1Result<T>[] } | { repeated: true; target: string };

/**
 * Runs `write` once under `key`, recording `target` (what it touches: a task id, a note path). Gives the
 * write's batch results, or the stored target when the key was already used. Without a key, just the write.
 */
export async function writeOnce<T = Record<string, unknown>>(
  db: D1Database,
  userId: string,
  key: string | undefined,
  target: string,
  write: D1PreparedStatement[],
): Promise<Effect<T>> {
  if (key === undefined) return { repeated: false, results: await db.batch<T>(write) };
  const cutoff = new Date(Date.now() - KEEP_MS).toISOString();
  try {
    // The key first: a repeat fails before the write's statements run at all.
    const results = await db.batch<T>([
      db.prepare("INSERT INTO tool_effects (user_id, key, target) VALUES (?, ?, ?)").bind(userId, key, target),
      ...write,
      db.prepare("DELETE FROM tool_effects WHERE user_id = ? AND created_at < ?").bind(userId, cutoff),
    ]);
    return { repeated: false, results: results.slice(1, 1 + write.length) };
  } catch (error) {
    if (!isKeyTaken(error)) throw error;
  }
  const row = await db
    .prepare("SELECT target FROM tool_effects WHERE user_id = ? AND key = ?")
    .bind(userId, key)
    .first<{ target: string }>();
  // Gone only if the user was deleted since the violation: nothing to answer with.
  if (!row) throw new Error("the idempotency key was taken, then removed");
  return { repeated: true, target: row.target };
}

/** The key's own violation; any other constraint failure (of the write) is a real error. */
function isKeyTaken(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/(UNIQUE|PRIMARY KEY) constraint failed: tool_effects\./.test(e.message)) return true;
  }
  return false;
}

/** Added to a tool's result when its write was a repeat, so the model knows it was not done again. */
export const ALREADY_DONE =
  "This write had already taken effect before the conversation's server restarted; it was not done again.";
