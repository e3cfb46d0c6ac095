// Accounts as the operator sees them (docs/protocol.md "Administration"), in one shard: creating one,
// their role and status, a shard's part of the admins' list with search and this month's use
// (across-shards.ts merges the parts), and the last-activity stamp. The rules that span shards (one first
// admin, never no admin left) are the directory's (d1/directory.ts), each one statement there.
import { periodsAt } from "../core/quota-rules";
import type { AccountStatus, QuotaOverride, Role } from "../protocol";
import { overrideOf } from "./quotas";
import type { Reader } from "./shards";

export interface Account {
  id: string;
  username: string;
  role: Role;
  status: AccountStatus;
  lastActiveAt: string | null;
}

/** Inserts the account, its username already claimed in the directory (which decided the role). */
export async function createAccount(
  d1: D1Database,
  account: { id: string; username: string; passwordHash: string; status: AccountStatus; role: Role },
): Promise<void> {
  await d1
    .prepare("INSERT INTO users (id, username, password_hash, status, role) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(account.id, account.username, account.passwordHash, account.status, account.role)
    .run();
}

export async function accountById(d1: D1Database, id: string): Promise<Account | undefined> {
  const row = await d1
    .prepare("SELECT id, username, role, status, last_active_at FROM users WHERE id = ?")
    .bind(id)
    .first<{ id: string; username: string; role: Role; status: AccountStatus; last_active_at: string | null }>();
  return row ? { ...row, lastActiveAt: row.last_active_at } : undefined;
}

/** An account listed in ADMINS becomes an admin the first time it is seen (kept in the database). */
export async function promoteListed(d1: D1Database, id: string): Promise<boolean> {
  const row = await d1
    .prepare("UPDATE users SET role = 'admin' WHERE id = ? AND role <> 'admin' RETURNING id")
    .bind(id)
    .first();
  return !!row;
}

/**
 * What a role or status change did. `changed`: the account's role or status moved meanwhile, so the update
 * matched nothing; `last_admin` is the directory's refusal (removeAdminUnlessLast), named here for the routes.
 */
export type Change = "done" | "unchanged" | "changed" | "last_admin" | "not_found";

/** Sets a role (the directory has let a demotion through: removeAdminUnlessLast). */
export async function setRole(d1: D1Database, id: string, role: Role): Promise<Change> {
  const row = await d1
    .prepare("UPDATE users SET role = ?2 WHERE id = ?1 AND role <> ?2 RETURNING id")
    .bind(id, role)
    .first();
  return row ? "done" : explain(d1, id, (a) => a.role === role);
}

/**
 * Sets a status (approve: pending → active; disable; enable: disabled → active); the directory has let an
 * admin's disabling through (removeAdminUnlessLast). Disabling ends every session and API token in the
 * same transaction.
 */
export async function setStatus(
  d1: D1Database,
  id: string,
  status: AccountStatus,
  from: readonly AccountStatus[],
): Promise<Change> {
  const placeholders = from.map((_, i) => `?${i + 3}`).join(", ");
  const update = d1
    .prepare(`UPDATE users SET status = ?2 WHERE id = ?1 AND status IN (${placeholders}) RETURNING id`)
    .bind(id, status, ...from);
  if (status !== "disabled") {
    const row = await update.first();
    return row ? "done" : explain(d1, id, (a) => a.status === status);
  }
  const [updated] = await d1.batch([
    update,
    // Only if the update happened (the row is disabled now): sessions and tokens of an enabled admin stay.
    d1
      .prepare("DELETE FROM sessions WHERE user_id = ?1 AND (SELECT status FROM users WHERE id = ?1) = 'disabled'")
      .bind(id),
    d1
      .prepare("DELETE FROM api_tokens WHERE user_id = ?1 AND (SELECT status FROM users WHERE id = ?1) = 'disabled'")
      .bind(id),
  ]);
  return updated?.results.length ? "done" : explain(d1, id, (a) => a.status === status);
}

async function explain(d1: D1Database, id: string, already: (a: Account) => boolean): Promise<Change> {
  const account = await accountById(d1, id);
  if (!account) return "not_found";
  return already(account) ? "unchanged" : "changed";
}

/** Stamps the account's last activity, written at most once an hour (so it is right to within an hour). */
export async function touchActivity(d1: D1Database, id: string, lastActiveAt: string | null, now = Date.now()) {
  if (lastActiveAt && now - Date.parse(lastActiveAt) < 3_600_000) return;
  await d1.prepare("UPDATE users SET last_active_at = ? WHERE id = ?").bind(new Date(now).toISOString(), id).run();
}

export interface AccountRow {
  id: string;
  username: string;
  role: Role;
  status: AccountStatus;
  created_at: string;
  last_active_at: string | null;
  month_tokens: number;
  month_cost: number;
  quota_override: QuotaOverride;
}

/** The admin page's list: newest first, by part of a username and by status. */
export async function listAccounts(
  d1: Reader,
  query: { q?: string; status?: AccountStatus; limit: number; offset: number },
  now = Date.now(),
): Promise<{ rows: AccountRow[]; total: number }> {
  const like = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : "%";
  // An account being deleted (d1/account-deletion.ts) is gone already as far as the list goes.
  const where = `u.username LIKE ?1 ESCAPE '\\' AND (?2 IS NULL OR u.status = ?2) AND u.status <> 'deleting'`;
  const month = periodsAt(now).month;
  const [rows, count] = await d1.batch([
    d1
      .prepare(
        `SELECT u.id, u.username, u.role, u.status, u.created_at, u.last_active_at,
           CASE WHEN t.month = ?3 THEN t.month_tokens ELSE 0 END AS month_tokens,
           CASE WHEN t.month = ?3 THEN t.month_cost ELSE 0 END AS month_cost,
           q.limits AS limits
         FROM users u LEFT JOIN usage_totals t ON t.user_id = u.id LEFT JOIN user_quotas q ON q.user_id = u.id
         WHERE ${where} ORDER BY u.created_at DESC, u.id LIMIT ?4 OFFSET ?5`,
      )
      .bind(like, query.status ?? null, month, query.limit, query.offset),
    d1.prepare(`SELECT count(*) AS n FROM users u WHERE ${where}`).bind(like, query.status ?? null),
  ]);
  const accounts = (rows?.results ?? []) as (Omit<AccountRow, "quota_override"> & { limits: string | null })[];
  return {
    rows: accounts.map(({ limits, ...row }) => ({
      ...row,
      quota_override: overrideOf(limits ? JSON.parse(limits) : undefined),
    })),
    total: Number((count?.results[0] as { n: number } | undefined)?.n ?? 0),
  };
}
