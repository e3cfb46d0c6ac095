import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolError } from "../../agent/tools/tool";
import { vaultTools } from "../../agent/tools/vault";
import { matchTerms } from "../../d1/fts-query";
import { NotePathSchema } from "../../d1/notes";

import { findTool, toolsFor } from "./tool-runner";

const tool = (name: string) => findTool(vaultTools, name);
const setup = () => toolsFor(vaultTools);

type Hit = { path: string; snippet: string };

describe("vault tools", () => {
  it("declares four tools whose argument schemas convert to JSON Schema for the model", () => {
    expect(vaultTools.map((t) => t.name)).toEqual(["vault_search", "vault_read", "vault_write", "vault_list"]);
    for (const t of vaultTools) {
      const schema = z.toJSONSchema(t.args, { io: "input" }) as {
        properties: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description, `${t.name}.${field}`).toBeTruthy();
      }
    }
  });

  it("writes, reports creation and bytes, reads back, and refreshes updated_at on update", async () => {
    const { run } = await setup();
    expect(await run("vault_write", { path: "journal/today.md", content: "héllo" })).toEqual({
      path: "journal/today.md",
      bytes: 6,
      created: true,
    });
    const [before] = (await run("vault_list", {})).notes;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await run("vault_write", { path: "journal/today.md", content: "second draft" })).toEqual({
      path: "journal/today.md",
      bytes: 12,
      created: false,
    });
    expect(await run("vault_read", { path: "journal/today.md" })).toEqual({
      path: "journal/today.md",
      content: "second draft",
    });
    const notes = (await run("vault_list", {})).notes;
    expect(notes).toHaveLength(1);
    expect(notes[0].updated_at > before.updated_at).toBe(true);
  });

  it("normalises paths and refuses bad ones", async () => {
    const { run } = await setup();
    expect((await run("vault_write", { path: "  //projects//oracle.md ", content: "x" })).path).toBe(
      "projects/oracle.md",
    );
    expect((await run("vault_read", { path: "/projects/oracle.md" })).content).toBe("x");
    for (const bad of [
      "",
      "   ",
      "/",
      "../secret",
      "a/../b",
      "a/..",
      "folder/",
      "bad|char",
      "ümlaut.md",
      "x".repeat(201),
    ]) {
      expect(NotePathSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(() => tool("vault_read").args.parse({ path: bad }), JSON.stringify(bad)).toThrow();
    }
    expect(NotePathSchema.parse("Notes 2024/my_file-v1.2.md")).toBe("Notes 2024/my_file-v1.2.md");
    expect(NotePathSchema.parse("x".repeat(200))).toHaveLength(200);
    expect(() => tool("vault_write").args.parse({ path: "big.md", content: "x".repeat(100_001) })).toThrow();
  });

  it("answers a missing note with a ToolError the model can read", async () => {
    const { run } = await setup();
    const failure = run("vault_read", { path: "nowhere.md" });
    await expect(failure).rejects.toBeInstanceOf(ToolError);
    await expect(failure).rejects.toThrow("No note at nowhere.md");
  });

  it("lists by path with a literal prefix, at most 200", async () => {
    const { run } = await setup();
    for (const path of ["b.md", "a_b/two.md", "a_b/one.md", "axb/three.md"])
      await run("vault_write", { path, content: path });
    const all = (await run("vault_list", {})).notes as { path: string; bytes: number; updated_at: string }[];
    expect(all.map((n) => n.path)).toEqual(["a_b/one.md", "a_b/two.md", "axb/three.md", "b.md"]);
    expect(all[0]).toEqual({ path: "a_b/one.md", bytes: 10, updated_at: expect.any(String) });
    // "_" is not a LIKE wildcard here; a leading "/" is normalised away.
    expect((await run("vault_list", { prefix: "/a_b/" })).notes.map((n: { path: string }) => n.path)).toEqual([
      "a_b/one.md",
      "a_b/two.md",
    ]);
    expect((await run("vault_list", { prefix: "zzz" })).notes).toEqual([]);
    expect(() => tool("vault_list").args.parse({ prefix: "../" })).toThrow();
  });

  it("ranks search results by relevance and marks matches in snippets", async () => {
    const { run } = await setup();
    await run("vault_write", { path: "zoo/many.md", content: "zebra zebra zebra in the zoo, zebra everywhere" });
    await run("vault_write", { path: "zoo/one.md", content: `${"A long note about animals. ".repeat(20)}One zebra.` });
    await run("vault_write", { path: "other.md", content: "nothing striped here" });
    const { results } = (await run("vault_search", { query: "zebra" })) as { results: Hit[] };
    expect(results.map((r) => r.path)).toEqual(["zoo/many.md", "zoo/one.md"]);
    expect(results[0]?.snippet).toContain("«zebra»");
    expect(results[1]?.snippet).toMatch(/…/);

    // Stemming (porter), prefix search, path hits and the limit.
    expect((await run("vault_search", { query: "zebras" })).results).toHaveLength(2);
    expect((await run("vault_search", { query: "zeb*" })).results).toHaveLength(2);
    expect((await run("vault_search", { query: "many" })).results.map((r: Hit) => r.path)).toEqual(["zoo/many.md"]);
    expect((await run("vault_search", { query: "zebra", limit: 1 })).results).toHaveLength(1);
    expect(await run("vault_search", { query: "giraffe" })).toEqual({ results: [] });
  });

  it("matches all words first and falls back to any word", async () => {
    const { run } = await setup();
    await run("vault_write", { path: "a.md", content: "apple banana" });
    await run("vault_write", { path: "b.md", content: "apple cherry" });
    expect((await run("vault_search", { query: "apple banana" })).results.map((r: Hit) => r.path)).toEqual(["a.md"]);
    const any = (await run("vault_search", { query: "banana cherry" })).results.map((r: Hit) => r.path);
    expect(any.sort()).toEqual(["a.md", "b.md"]);
  });

  it("never lets FTS5 syntax escape from a hostile query", async () => {
    const { run } = await setup();
    await run("vault_write", { path: "q.md", content: 'quoted "words" and (brackets) with stars*' });
    const hostile = [
      "a AND (",
      '"unbalanced',
      '""',
      "*",
      "**",
      "quoted*",
      "NEAR(",
      "NEAR(a b, 2)",
      "content:quoted",
      "path:q",
      "-quoted",
      "^quoted",
      "a OR",
      "NOT",
      ")))",
      "{a b}",
      "'single'",
      "quoted AND (",
      "brackets)",
      "\\",
      "\u0000",
    ];
    for (const query of hostile) {
      const result = await run("vault_search", { query });
      expect(Array.isArray(result.results), query).toBe(true);
    }
    expect((await run("vault_search", { query: "quoted AND (" })).results.map((r: Hit) => r.path)).toEqual(["q.md"]);
    expect((await run("vault_search", { query: '"words"' })).results.map((r: Hit) => r.path)).toEqual(["q.md"]);
    expect((await run("vault_search", { query: "content: quoted" })).results.map((r: Hit) => r.path)).toEqual(["q.md"]);
    expect(await run("vault_search", { query: "*" })).toEqual({ results: [] });
  });

  it("quotes every term and keeps a trailing * as a prefix", () => {
    expect(matchTerms('a AND ( "x y" zeb* ** -z')).toEqual(['"a"', '"AND"', '"x"', '"y"', '"zeb"*', '"-z"']);
    expect(matchTerms("  ")).toEqual([]);
  });

  it("keeps each user's vault to themselves", async () => {
    const alice = await setup();
    const bob = await setup();
    await alice.run("vault_write", { path: "secret.md", content: "alice's xylophone plans" });
    expect(await bob.run("vault_search", { query: "xylophone" })).toEqual({ results: [] });
    await expect(bob.run("vault_read", { path: "secret.md" })).rejects.toThrow("No note at secret.md");
    expect((await bob.run("vault_list", {})).notes).toEqual([]);
    // The same path is a different note for bob; writing it leaves alice's alone.
    expect((await bob.run("vault_write", { path: "secret.md", content: "bob's" })).created).toBe(true);
    expect((await alice.run("vault_read", { path: "secret.md" })).content).toBe("alice's xylophone plans");
    expect((await bob.run("vault_search", { query: "xylophone" })).results).toEqual([]);
    expect((await alice.run("vault_search", { query: "xylophone" })).results).toHaveLength(1);
  });
});
