// d1/client.ts: one drizzle instance per D1 binding, since making one walks the whole schema and the
// chat frame's path asks for one per query.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { database } from "../../d1/client";

describe("database", () => {
  it("gives the same instance for the same binding and a new one for another", () => {
    const other = new Proxy(env.DB, {});
    expect(database(env.DB)).toBe(database(env.DB));
    expect(database(other)).not.toBe(database(env.DB));
    // Each shard its own instance: one shard's queries never run on another's.
    expect(database(env.SHARD_1)).not.toBe(database(env.DB));
  });
});
