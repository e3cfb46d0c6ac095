// core/shard-rules.ts: which shard a new account goes to, and the shard a token or an id names.
import { describe, expect, it } from "vitest";
import { openShardsOf, pickOne, shardOfId, shardOfKey, shardOfToken } from "../../core/shard-rules";

describe("shards", () => {
  it("sends new accounts only to shards not marked full, and never to none", () => {
    expect(openShardsOf(3, "0, 1")).toEqual([2]);
    expect(openShardsOf(3, "")).toEqual([0, 1, 2]);
    expect(openShardsOf(3, undefined)).toEqual([0, 1, 2]);
    // Every shard marked full: the newest still takes sign-ups (a mistake is not an outage).
    expect(openShardsOf(2, "0,1")).toEqual([1]);
    const open = openShardsOf(4, "1");
    const picks = new Set(Array.from({ length: 200 }, (_, i) => pickOne(open, () => (i % 97) / 97)));
    expect([...picks].sort()).toEqual([0, 2, 3]);
  });

  it("reads the shard a token or an id carries; one from before shards is shard 0's", () => {
    const hex = "a".repeat(64);
    expect(shardOfToken(`os_s2_${hex}`)).toBe(2);
    expect(shardOfToken(`ot_s17_${hex}`)).toBe(17);
    expect(shardOfToken(`os_${hex}`)).toBe(0);
    expect(shardOfId("3.AbC-_x")).toBe(3);
    expect(shardOfId("AbC-_x")).toBe(0);
    // A base64url id never has a dot: a legacy id that starts with digits is still shard 0's.
    expect(shardOfId("12Ab-x")).toBe(0);
  });

  it("puts a key nobody owns in the same shard every time, spread over all of them", () => {
    expect(shardOfKey("alice", 3)).toBe(shardOfKey("alice", 3));
    const used = new Set(Array.from({ length: 60 }, (_, i) => shardOfKey(`name-${i}`, 3)));
    expect(used).toEqual(new Set([0, 1, 2]));
  });
});
