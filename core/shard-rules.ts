// Which shard (d1/shards.ts, docs/architecture.md "Scale"), as plain rules: the shards open to new
// accounts, one picked among them, a key's stable shard, and the shard a token or an id names.

/** The shards of `count` not listed in `full` ("0,1"); every shard full is a mistake, not an outage: the newest. */
export function openShardsOf(count: number, full: string | undefined): number[] {
  const listed = new Set(
    (full ?? "")
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number),
  );
  const all = Array.from({ length: count }, (_, i) => i);
  const open = all.filter((i) => !listed.has(i));
  return open.length ? open : all.slice(-1);
}

/** One of `open` at random, so shards fill evenly with no counter to write. */
export const pickOne = (open: number[], random: () => number = Math.random): number =>
  open[Math.floor(random() * open.length)] ?? 0;

/** The shard of `count` a key nobody owns falls to (FNV-1a): the same every time. */
export function shardOfKey(key: string, count: number): number {
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619);
  return (hash >>> 0) % Math.max(1, count);
}

/** A token (`os_s2_<hex>`) → its shard; one without a mark (made before shards) is shard 0's. */
export function shardOfToken(token: string): number {
  const mark = token.match(/^[a-z]+_s(\d{1,4})_/);
  return mark ? Number(mark[1]) : 0;
}

/** An id (`2.<random>`) → its shard; one without a mark is shard 0's. `.` never occurs in base64url. */
export function shardOfId(id: string): number {
  const mark = id.match(/^(\d{1,4})\./);
  return mark ? Number(mark[1]) : 0;
}

export const idInShard = (shard: number, id: string) => `${shard}.${id}`;
