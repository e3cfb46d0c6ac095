// The admins' audit log: every admin action, who did it to whom and when. Usernames are kept as text so an
// entry still reads after an account is gone.
import type { AuditEntry } from "../protocol";
import type { Reader } from "./shards";

export async function audit(
  d1: D1Database,
  entry: { actor: string; action: AuditEntry["action"]; target?: string; detail?: Record<string, unknown> },
): Promise<void> {
  await d1
    .prepare("INSERT INTO admin_audit (actor, action, target, detail) VALUES (?, ?, ?, ?)")
    .bind(entry.actor, entry.action, entry.target ?? null, JSON.stringify(entry.detail ?? {}))
    .run();
}

/** Newest first; `before`: entries older than this id. */
export async function auditLog(d1: Reader, limit: number, before?: number): Promise<AuditEntry[]> {
  const { results } = await d1
    .prepare(
      "SELECT id, at, actor, action, target, detail FROM admin_audit WHERE (?1 IS NULL OR id < ?1) ORDER BY id DESC LIMIT ?2",
    )
    .bind(before ?? null, limit)
    .all<Omit<AuditEntry, "detail"> & { detail: string }>();
  return results.map((row) => ({ ...row, detail: JSON.parse(row.detail) }));
}
