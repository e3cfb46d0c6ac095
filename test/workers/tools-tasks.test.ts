import { describe, expect, it } from "vitest";
import { z } from "zod";
import { taskTools } from "../../agent/tools/tasks";
import { ToolError } from "../../agent/tools/tool";

import { findTool, toolsFor } from "./tool-runner";

const tool = (name: string) => findTool(taskTools, name);
const setup = () => toolsFor(taskTools);

describe("task tools", () => {
  it("declares three tools whose argument schemas convert to JSON Schema for the model", () => {
    expect(taskTools.map((t) => t.name)).toEqual(["task_create", "task_update", "task_list"]);
    for (const t of taskTools) expect(() => z.toJSONSchema(t.args, { io: "input" })).not.toThrow();
  });

  it("creates an open task with the documented shape", async () => {
    const { run } = await setup();
    const task = await run("task_create", { title: "  Write the report  " });
    expect(task).toEqual({
      id: expect.any(String),
      title: "Write the report",
      status: "open",
      details: "",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.any(String),
    });
    expect((await run("task_create", { title: "With details", details: "step 1, step 2" })).details).toBe(
      "step 1, step 2",
    );
  });

  it("refuses bad arguments", () => {
    const create = tool("task_create").args;
    expect(create.safeParse({ title: "" }).success).toBe(false);
    expect(create.safeParse({ title: "   " }).success).toBe(false);
    expect(create.safeParse({ title: "x".repeat(201) }).success).toBe(false);
    expect(create.safeParse({ title: "ok", details: "x".repeat(4001) }).success).toBe(false);
    const update = tool("task_update").args;
    expect(update.safeParse({ id: "t1" }).success).toBe(false);
    expect(update.safeParse({ id: "t1", status: "closed" }).success).toBe(false);
    expect(update.safeParse({ status: "done" }).success).toBe(false);
    expect(tool("task_list").args.safeParse({ status: "whatever" }).success).toBe(false);
  });

  it("updates status, title and details, refreshing updated_at", async () => {
    const { run } = await setup();
    const task = await run("task_create", { title: "Draft", details: "old" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = await run("task_update", { id: task.id, status: "in_progress" });
    expect(started).toMatchObject({ id: task.id, title: "Draft", status: "in_progress", details: "old" });
    expect(started.updated_at > task.updated_at).toBe(true);
    expect(started.created_at).toBe(task.created_at);
    const renamed = await run("task_update", { id: task.id, title: "Final", details: "", status: "done" });
    expect(renamed).toMatchObject({ title: "Final", details: "", status: "done" });
  });

  it("answers an unknown id or another user's task with a ToolError", async () => {
    const alice = await setup();
    const bob = await setup();
    const task = await alice.run("task_create", { title: "Alice's" });
    const missing = alice.run("task_update", { id: "no-such-id", status: "done" });
    await expect(missing).rejects.toBeInstanceOf(ToolError);
    await expect(missing).rejects.toThrow("No task no-such-id");
    await expect(bob.run("task_update", { id: task.id, status: "done" })).rejects.toThrow(`No task ${task.id}`);
    expect((await alice.run("task_list", {})).tasks).toEqual([task]);
  });

  it("lists own tasks newest first, filtered by status", async () => {
    const alice = await setup();
    const bob = await setup();
    const first = await alice.run("task_create", { title: "first" });
    const second = await alice.run("task_create", { title: "second" });
    const third = await alice.run("task_create", { title: "third" });
    await alice.run("task_update", { id: second.id, status: "done" });
    await bob.run("task_create", { title: "bob's" });
    const all = (await alice.run("task_list", {})).tasks as { id: string }[];
    expect(all.map((t) => t.id)).toEqual([third.id, second.id, first.id]);
    const open = (await alice.run("task_list", { status: "open" })).tasks as { id: string }[];
    expect(open.map((t) => t.id)).toEqual([third.id, first.id]);
    expect((await alice.run("task_list", { status: "in_progress" })).tasks).toEqual([]);
    expect((await bob.run("task_list", {})).tasks.map((t: { title: string }) => t.title)).toEqual(["bob's"]);
  });
});
