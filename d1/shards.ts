// Where a user's rows live (docs/architecture.md "Scale"): every row that belongs to one user is in that
// user's shard, one of the D1 databases bound as DB (shard 0), SHARD_1, SHARD_2, … (wrangler.toml); what must be unique
// across users (usernames, passkey credential ids, identity-provider subjects) is in the directory, bound
// as DIRECTORY. Adding a shard is a binding and a deploy: nobody moves, new accounts go to the shards not
// listed in SHARDS_FULL.
//
// A credential, a share link and a reset link carry their shard in the secret itself (`os_s2_<hex>`,
// `2.<id>`), so authenticating reads one shard and no directory. A value made before shards has no mark
// and is shard 0's: an upgraded installation's one database became shard 0 (scripts/upgrade-to-shards.ts).

import { openShardsOf, pickOne, shardOfId, shardOfKey, shardOfToken } from "../core/shard-rules";

/** Where one user's rows are: their id and shard. */
export interface Placement {
  userId: string;
  shard: number;
}

/**
 * The binding name of shard `index`: shard 0 keeps the name the one database had before shards (DB), so an
 * installation, a script or a tool that migrates or reads `DB` goes on working; the others are SHARD_<n>.
 */
export const shardBinding = (index: number) => (index === 0 ? "DB" : `SHARD_${index}`);

type Bindings = Pick<Env, "DIRECTORY" | "DB" | "SHARDS_FULL">;
const binding = (env: Bindings, name: string) => (env as unknown as Record<string, D1Database | undefined>)[name];

/** How many shards are bound: DB, SHARD_1 … SHARD_{n-1}, counted up to the first gap. */
export function shardCount(env: Bindings): number {
  let n = 0;
  while (binding(env, shardBinding(n))) n++;
  return n;
}

/** Shard `index`'s database; a shard that is not bound (a mark from another installation) is an error. */
export function shardDb(env: Bindings, index: number): D1Database {
  const d1 = binding(env, shardBinding(index));
  if (!d1) throw new Error(`No D1 database is bound as ${shardBinding(index)}`);
  return watched(d1, `shard ${index}`);
}

/** The shard of `owner` (a conversation's meta before shards has none: shard 0). */
export const ownerShard = (env: Bindings, owner: { shard?: number }) => shardDb(env, owner.shard ?? 0);

/** The directory: usernames, passkey credential ids and provider subjects → user id and shard; invites; the audit. */
export const directoryDb = (env: Bindings): D1Database => watched(env.DIRECTORY, "directory");

/** The shards new accounts may go to: every bound shard not listed in SHARDS_FULL ("0,1"). */
export const openShards = (env: Bindings): number[] => openShardsOf(shardCount(env), env.SHARDS_FULL);

/** A new account's shard: one of the open shards at random. */
export const pickShard = (env: Bindings, random = Math.random): number => pickOne(openShards(env), random);

/** A shard for something no user owns yet (an unknown username's sign-in attempts): stable for the key. */
export const shardForKey = (env: Bindings, key: string): number => shardOfKey(key, shardCount(env));

// ---- Reads that may be a little stale ---------------------------------------------------------------

/** A database's statements, on its primary or through a read replica (replica). */
export type Reader = Pick<D1Database, "prepare" | "batch">;

/**
 * Reads through D1's read replicas (the Sessions API, nearest copy, possibly seconds behind): for what a
 * stale answer cannot harm, the admin's lists and charts and a username's placement (never renamed nor
 * moved; a stale row of a deleted account names a shard that no longer has it, which signs nobody in). Never for a credential or a share link (a revocation
 * must hold at once), a quota's admission, a rate limit or any write: those read the primary.
 */
export const replica = (d1: D1Database): Reader => d1.withSession("first-unconstrained");

// ---- Values that carry their shard (core/shard-rules.ts) -------------------------------------------

export { idInShard } from "../core/shard-rules";

/** The shard a token names, if this installation has it (else nothing of it exists here); none, none. */
export const tokenShard = (env: Bindings, token: string | undefined): number | undefined =>
  token === undefined ? undefined : bound(env, shardOfToken(token));

/** The shard a share link's id names, if this installation has it. */
export const linkShard = (env: Bindings, id: string): number | undefined => bound(env, shardOfId(id));

const bound = (env: Bindings, shard: number) => (shard < shardCount(env) ? shard : undefined);

// ---- Which databases a request touched (test/workers/database-touches.test.ts) --------------------

type Watcher = (database: string) => void;
let watcher: Watcher | undefined;

/** Calls `watch` with the database's name ("directory", "shard 2") on every statement or batch; tests only. */
export function watchDatabases(watch: Watcher | undefined): void {
  watcher = watch;
}

const wrappers = new WeakMap<D1Database, D1Database>();

/** The binding, reporting to the watcher when one is set (checked per call, so a cached binding reports too). */
function watched(binding: D1Database, name: string): D1Database {
  let wrapper = wrappers.get(binding);
  if (!wrapper) {
    const report = () => watcher?.(name);
    wrapper = {
      prepare: (query: string) => (report(), binding.prepare(query)),
      batch: (statements: D1PreparedStatement[]) => (report(), binding.batch(statements)),
      exec: (query: string) => (report(), binding.exec(query)),
      withSession: (constraint?: string) => (report(), binding.withSession(constraint)),
      dump: () => binding.dump(),
    } as D1Database;
    wrappers.set(binding, wrapper);
  }
  return wrapper;
}
