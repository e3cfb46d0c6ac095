// The built-in write tools take effect at most once per idempotency key (d1/tool-effects.ts): a call
// re-run after a restart (same conversation, turn, step and call id) is recognised, not repeated.
import { describe, expect, it } from "vitest";
import { taskTools } from "../../agent/tools/tasks";
import type { AgentTool, ToolContext } from "../../agent/tools/tool";
import { vaultTools } from "../../agent/tools/vault";
import { ALREADY_DONE, writeOnce } from "../../d1/tool-effects";
import { api, type Session, signup } from "./helpers";
import { findTool } from "./tool-runner";
import { chat, history, ownModel, scenario } from "./turn-helpers";

const tools: AgentTool[] = [...taskTools, ...vaultTools];

/** A user and one call's context: `run` under the same `call` is the same call run again. */
async function setup(session?: Session) {
  const { user, db } = session ?? (await signup());
  const base: ToolContext = {
    db,
    userId: user.id,
    conversationId: "conversation",
    turnId: "turn",
    signal: new AbortController().signal,
    step: 1,
    callId: "call",
  };
  // biome-ignore lint/suspicious/noExplicitAny: test results are inspected loosely
  const run = (name: string, args: unknown, call: Partial<ToolContext> = {}): Promise<any> => {
    const tool = findTool(tools, name);
    return tool.execute(tool.args.parse(args), { ...base, ...call });
  };
  return { user, db, run };
}

/** How many rows of `table` the user has, in their shard. */
const count = async (table: "tasks" | "notes" | "tool_effects", { user, db }: Pick<Session, "user" | "db">) =>
  (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(user.id).first<{ n: number }>())?.n;

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("built-in writes under an idempotency key", () => {
  it("declares the write tools idempotent", () => {
    for (const name of ["task_create", "task_update", "vault_write"])
      expect(findTool(tools, name).idempotent).toBe(true);
  });

  it("creates a task once per call, answering the repeat with the task and already_done", async () => {
    const owner = await setup();
    const { run } = owner;
    const first = await run("task_create", { title: "Write the report" });
    expect(first).not.toHaveProperty("already_done");
    const again = await run("task_create", { title: "Write the report" });
    expect(again).toEqual({ ...first, already_done: ALREADY_DONE });
    expect(await count("tasks", owner)).toBe(1);

    // Another call, step or turn is another write.
    const other = await run("task_create", { title: "Write the report" }, { callId: "call-2" });
    expect(other.id).not.toBe(first.id);
    expect(other).not.toHaveProperty("already_done");
    await run("task_create", { title: "Write the report" }, { step: 2 });
    await run("task_create", { title: "Write the report" }, { turnId: "turn-2" });
    expect(await count("tasks", owner)).toBe(4);
  });

  it("makes two writes of two calls the model gave one id in one step: each call has a key of its own", async () => {
    const create = (title: string) => ({ name: "task_create", arguments: { title }, id: "call_twin" });
    const s = await scenario([{ tool_calls: [create("First"), create("Second")] }, { text: "Both created." }]);
    // The Responses API passes the model's ids on as they are (turn-helpers.ts).
    await ownModel(s.session, "responses");
    await chat(s, "two tasks");
    const results = (await history(s)).flatMap((m) => (m.role === "tool" ? [m] : []));
    expect(results).toHaveLength(2);
    expect(new Set(results.map((m) => m.call_id)).size).toBe(2);
    for (const m of results) expect(m.result).not.toHaveProperty("already_done");
    const titles = await s.session.db
      .prepare("SELECT title FROM tasks WHERE user_id = ? ORDER BY title")
      .bind(s.session.user.id)
      .all<{ title: string }>();
    expect(titles.results.map((t) => t.title)).toEqual(["First", "Second"]);
  });

  it("writes a note once per call: a changed content under the same key is not written", async () => {
    const owner = await setup();
    const { run } = owner;
    expect(await run("vault_write", { path: "plan.md", content: "first" })).toEqual({
      path: "plan.md",
      bytes: 5,
      created: true,
    });
    expect(await run("vault_write", { path: "plan.md", content: "second draft" })).toEqual({
      path: "plan.md",
      bytes: 5,
      created: false,
      already_done: ALREADY_DONE,
    });
    expect(await run("vault_read", { path: "plan.md" }, { callId: "read" })).toEqual({
      path: "plan.md",
      content: "first",
    });
    expect(await count("notes", owner)).toBe(1);
    // The next call writes.
    expect(await run("vault_write", { path: "plan.md", content: "second draft" }, { callId: "call-2" })).toEqual({
      path: "plan.md",
      bytes: 12,
      created: false,
    });
  });

  it("applies a task update once per call, answering the repeat with the task as it is now", async () => {
    const { run } = await setup();
    const task = await run("task_create", { title: "Draft" }, { callId: "create" });
    await tick();
    const renamed = await run("task_update", { id: task.id, title: "Renamed" });
    expect(renamed).toMatchObject({ id: task.id, title: "Renamed" });
    expect(renamed).not.toHaveProperty("already_done");
    await tick();
    const later = await run("task_update", { id: task.id, title: "Later", status: "done" }, { callId: "call-2" });
    await tick();
    // Re-running the first update changes nothing: not the title, not updated_at.
    expect(await run("task_update", { id: task.id, title: "Renamed" })).toEqual({
      ...later,
      already_done: ALREADY_DONE,
    });
    expect((await run("task_list", {}, { callId: "list" })).tasks).toEqual([later]);
  });

  it("leaves the /api routes (no key) as they were: every request writes", async () => {
    const session = await signup();
    const call = (path: string, method: string, json: unknown) =>
      api(path, { method, json, headers: session.headers }).then(async (res) => ({
        status: res.status,
        body: await res.json<{ id: string; title: string; content: string }>(),
      }));
    const one = await call("/api/tasks", "POST", { title: "Same" });
    const two = await call("/api/tasks", "POST", { title: "Same" });
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(one.body.id).not.toBe(two.body.id);
    expect(one.body).not.toHaveProperty("already_done");
    const patched = await call(`/api/tasks/${one.body.id}`, "PATCH", { title: "Patched" });
    expect(patched).toMatchObject({ status: 200, body: { id: one.body.id, title: "Patched" } });
    expect(Object.keys(patched.body).sort()).toEqual(["created_at", "details", "id", "status", "title", "updated_at"]);
    expect((await call(`/api/tasks/no-such-task`, "PATCH", { title: "x" })).status).toBe(404);
    await call("/api/notes/a.md", "PUT", { content: "one" });
    const put = await call("/api/notes/a.md", "PUT", { content: "two" });
    expect(put).toMatchObject({ status: 200, body: { path: "a.md", content: "two" } });
    expect(put.body).not.toHaveProperty("repeated");
    expect(await count("tasks", session)).toBe(2);
    expect(await count("tool_effects", session)).toBe(0);

    // A tool call and a route write to the same note do not get in each other's way.
    const { run } = await setup(session);
    expect(await run("vault_write", { path: "a.md", content: "three" })).toEqual({
      path: "a.md",
      bytes: 5,
      created: false,
    });
    await call("/api/notes/a.md", "PUT", { content: "four" });
    expect(await run("vault_write", { path: "a.md", content: "three" })).toMatchObject({ already_done: ALREADY_DONE });
    expect(await run("vault_read", { path: "a.md" }, { callId: "read" })).toEqual({ path: "a.md", content: "four" });
  });

  it("never matches another user's key", async () => {
    const alice = await setup();
    const bob = await setup();
    const hers = await alice.run("task_create", { title: "Alice's" });
    const his = await bob.run("task_create", { title: "Bob's" });
    expect(his).toMatchObject({ title: "Bob's" });
    expect(his).not.toHaveProperty("already_done");
    expect(his.id).not.toBe(hers.id);
    const write = { callId: "write" };
    expect(await bob.run("vault_write", { path: "n.md", content: "bob" }, write)).toEqual({
      path: "n.md",
      bytes: 3,
      created: true,
    });
    expect(await alice.run("vault_write", { path: "n.md", content: "alice" }, write)).toEqual({
      path: "n.md",
      bytes: 5,
      created: true,
    });
    expect(await count("tasks", alice)).toBe(1);
    expect(await count("tasks", bob)).toBe(1);
    // Alice's update, then Bob's call with the same key: his is not a repeat of hers, and finds no task.
    const update = { callId: "update" };
    await alice.run("task_update", { id: hers.id, title: "Renamed" }, update);
    await expect(bob.run("task_update", { id: hers.id, title: "Bob was here" }, update)).rejects.toThrow(
      `No task ${hers.id}`,
    );
    expect((await alice.run("task_list", {}, { callId: "list" })).tasks).toMatchObject([{ title: "Renamed" }]);
  });

  it("rolls the key back with a write that fails, and rethrows the write's own constraint failure", async () => {
    const owner = await setup();
    const { user, db } = owner;
    // A username taken in the same shard (the user's own): the insert fails on the shard's unique index.
    const failing = db
      .prepare("INSERT INTO users (id, username, password_hash) VALUES (?, ?, 'x')")
      .bind(crypto.randomUUID(), user.username);
    await expect(writeOnce(db, user.id, "k", "t", [failing])).rejects.toThrow(/UNIQUE constraint failed: users/);
    expect(await count("tool_effects", owner)).toBe(0);
    const ok = db.prepare("SELECT 1 AS one");
    expect(await writeOnce(db, user.id, "k", "t", [ok])).toMatchObject({ repeated: false });
    expect(await writeOnce(db, user.id, "k", "other", [ok])).toEqual({ repeated: true, target: "t" });
  });

  it("prunes the user's keys older than a week in the same batch", async () => {
    const alice = await setup();
    const bob = await setup();
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString();
    const recent = new Date(Date.now() - 6 * 24 * 3600 * 1000).toISOString();
    const insert = ({ user, db }: typeof alice, key: string, at: string) =>
      db
        .prepare("INSERT INTO tool_effects (user_id, key, target, created_at) VALUES (?, ?, 'x', ?)")
        .bind(user.id, key, at)
        .run();
    await insert(alice, "old", old);
    await insert(alice, "recent", recent);
    await insert(bob, "old", old);
    await alice.run("task_create", { title: "Prunes" });
    // Each user's keys are in their own shard (the two may share one).
    const keysOf = async ({ user, db }: typeof alice) =>
      (
        await db
          .prepare("SELECT user_id, key FROM tool_effects WHERE user_id = ?")
          .bind(user.id)
          .all<{ user_id: string; key: string }>()
      ).results;
    const keys = [...(await keysOf(alice)), ...(await keysOf(bob))].sort((a, b) => a.key.localeCompare(b.key));
    expect(keys).toEqual([
      { user_id: alice.user.id, key: "conversation/turn/1/call" },
      { user_id: bob.user.id, key: "old" },
      { user_id: alice.user.id, key: "recent" },
    ]);
  });
});
