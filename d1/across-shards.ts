// What spans users (the admin's list of accounts, the usage totals), read from every shard in parallel
// and merged here (docs/architecture.md "Scale"). Each shard answers what would be its part of the whole
// page, so a page reads at most (offset + limit) rows of each shard; the admin pages go no deeper than a
// few hundred rows, and every shard is read at once, so a page takes one shard's time, not their sum.

import type { UsageRow } from "../protocol";
import { type AccountRow, listAccounts } from "./accounts";
import { type Reader, replica, shardCount, shardDb } from "./shards";
import { topUsers, usageRows } from "./usage";

type Bindings = Parameters<typeof shardDb>[0];

/** Every shard's database, each read at once, through its nearest read replica (an admin's list may lag). */
const everyShard = <T>(env: Bindings, read: (d1: Reader) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: shardCount(env) }, (_, i) => read(replica(shardDb(env, i)))));

/** The admin's list across every shard: newest first (then by id), as one database would page it. */
export async function listAccountsEverywhere(
  env: Bindings,
  query: Parameters<typeof listAccounts>[1],
): Promise<{ rows: AccountRow[]; total: number }> {
  const deep = { ...query, offset: 0, limit: query.offset + query.limit };
  const parts = await everyShard(env, (d1) => listAccounts(d1, deep));
  const rows = parts
    .flatMap((part) => part.rows)
    .sort((a, b) =>
      a.created_at === b.created_at ? a.id.localeCompare(b.id) : b.created_at.localeCompare(a.created_at),
    )
    .slice(query.offset, query.offset + query.limit);
  return { rows, total: parts.reduce((sum, part) => sum + part.total, 0) };
}

/** Everyone's use (day × model) from `since` on, summed across shards, oldest first. */
export async function usageEverywhere(env: Bindings, since: string): Promise<UsageRow[]> {
  const sums = new Map<string, UsageRow>();
  for (const row of (await everyShard(env, (d1) => usageRows(d1, since))).flat()) {
    const key = `${row.day}\u0000${row.model}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...row });
    else {
      sum.input_tokens += row.input_tokens;
      sum.output_tokens += row.output_tokens;
      sum.cost += row.cost;
      sum.calls += row.calls;
    }
  }
  return [...sums.values()].sort((a, b) => a.day.localeCompare(b.day) || a.model.localeCompare(b.model));
}

/** This month's heaviest users across shards: each shard's top `limit`, merged. */
export async function topUsersEverywhere(env: Bindings, now = Date.now(), limit = 10) {
  const all = (await everyShard(env, (d1) => topUsers(d1, now, limit))).flat();
  return all.sort((a, b) => b.tokens - a.tokens || b.cost - a.cost).slice(0, limit);
}
