// The /api/notes and /api/tasks routes of the real Worker.
import { describe, expect, it } from "vitest";
import { vaultTools } from "../../agent/tools/vault";
import { api, type Session, signup } from "./helpers";

/** Calls the real Worker (worker/app.ts mounts these routes), as a signed-in browser or anonymously. */
function call(session: Session | undefined, path: string, method = "GET", json?: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...session?.headers };
  if (json !== undefined) headers["Content-Type"] = "application/json";
  const body = json === undefined ? undefined : typeof json === "string" ? json : JSON.stringify(json);
  return api(path, { method, headers, body });
}

describe("notes routes", () => {
  it("puts, gets, lists by prefix and deletes own notes", async () => {
    const session = await signup();
    const put = await call(session, "/api/notes/projects/My%20plan.md", "PUT", { content: "héllo" });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({
      path: "projects/My plan.md",
      content: "héllo",
      bytes: 6,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await call(session, "/api/notes/projects/My%20plan.md", "PUT", { content: "second" });
    await call(session, "/api/notes/inbox.md", "PUT", { content: "" });

    const got = await call(session, "/api/notes/projects/My%20plan.md");
    expect(await got.json()).toMatchObject({ path: "projects/My plan.md", content: "second" });
    const all = (await (await call(session, "/api/notes")).json()) as { notes: { path: string }[] };
    expect(all.notes.map((n) => n.path)).toEqual(["inbox.md", "projects/My plan.md"]);
    const under = (await (await call(session, "/api/notes?prefix=projects/")).json()) as { notes: unknown[] };
    expect(under.notes).toEqual([{ path: "projects/My plan.md", bytes: 6, updated_at: expect.any(String) }]);

    expect((await call(session, "/api/notes/inbox.md", "DELETE")).status).toBe(204);
    const gone = await call(session, "/api/notes/inbox.md");
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: { code: "not_found", message: "No note at inbox.md" } });
    expect((await call(session, "/api/notes/inbox.md", "DELETE")).status).toBe(404);
  });

  it("creates only with If-None-Match: *, answering 409 and keeping the note when the path is taken", async () => {
    const session = await signup();
    const create = (content: string) =>
      api("/api/notes/ideas.md", {
        method: "PUT",
        headers: { ...session.headers, "Content-Type": "application/json", "If-None-Match": "*" },
        body: JSON.stringify({ content }),
      });
    const [first, second] = await Promise.all([create("mine"), create("theirs")]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const loser = first.status === 409 ? first : second;
    expect(await loser.json()).toEqual({
      error: { code: "conflict", message: "A note already exists at ideas.md" },
    });
    const winner = ((await (first.status === 201 ? first : second).json()) as { content: string }).content;
    expect(((await (await call(session, "/api/notes/ideas.md")).json()) as { content: string }).content).toBe(winner);
    expect((await call(session, "/api/notes/ideas.md", "PUT", { content: "replaced" })).status).toBe(200);
  });

  it("shares the vault with the agent's tools", async () => {
    const session = await signup();
    await call(session, "/api/notes/shared.md", "PUT", { content: "written over HTTP about penguins" });
    const ctx = {
      db: session.db,
      userId: session.user.id,
      conversationId: "c",
      signal: new AbortController().signal,
      step: 1,
      callId: "x",
    };
    const search = vaultTools.find((t) => t.name === "vault_search");
    expect(await search?.execute(search.args.parse({ query: "penguin" }), ctx)).toEqual({
      results: [{ path: "shared.md", snippet: "written over HTTP about «penguins»" }],
    });
  });

  it("answers 400 for bad paths and bodies", async () => {
    const session = await signup();
    const badPath = await call(session, "/api/notes/bad%7Cchar.md");
    expect(badPath.status).toBe(400);
    expect(await badPath.json()).toMatchObject({
      error: { code: "invalid_input", fields: { path: expect.any(String) } },
    });
    expect((await call(session, "/api/notes/a%2F..%2Fb", "PUT", { content: "x" })).status).toBe(400);
    const noContent = await call(session, "/api/notes/x.md", "PUT", { text: "x" });
    expect(noContent.status).toBe(400);
    expect(await noContent.json()).toMatchObject({ error: { fields: { content: expect.any(String) } } });
    expect((await call(session, "/api/notes/x.md", "PUT", { content: 5 })).status).toBe(400);
    expect((await call(session, "/api/notes/x.md", "PUT", "{not json")).status).toBe(400);
    expect((await call(session, "/api/notes/x.md", "PUT", { content: "x".repeat(100_001) })).status).toBe(400);
    expect((await call(session, "/api/notes?prefix=..")).status).toBe(400);
    expect((await call(session, "/api/notes/x.md")).status).toBe(404);
  });

  it("answers 404 for another user's note and 401 without identity", async () => {
    const alice = await signup();
    const bob = await signup();
    await call(alice, "/api/notes/private.md", "PUT", { content: "alice only" });
    expect((await call(bob, "/api/notes/private.md")).status).toBe(404);
    expect((await call(bob, "/api/notes/private.md", "DELETE")).status).toBe(404);
    expect(await (await call(bob, "/api/notes")).json()).toEqual({ notes: [] });
    expect(await (await call(alice, "/api/notes/private.md")).json()).toMatchObject({ content: "alice only" });
    const anonymous = await call(undefined, "/api/notes");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "unauthorized" } });
  });
});

describe("tasks routes", () => {
  it("creates, lists, filters, updates and deletes own tasks", async () => {
    const session = await signup();
    const created = await call(session, "/api/tasks", "POST", { title: "Buy milk" });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string; updated_at: string };
    expect(task).toMatchObject({ title: "Buy milk", status: "open", details: "" });
    const other = (await (
      await call(session, "/api/tasks", "POST", { title: "Call mum", details: "Sunday" })
    ).json()) as {
      id: string;
    };

    const patched = await call(session, `/api/tasks/${task.id}`, "PATCH", { status: "done" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: task.id, status: "done", title: "Buy milk" });

    const list = (await (await call(session, "/api/tasks")).json()) as { tasks: { id: string }[] };
    expect(list.tasks.map((t) => t.id)).toEqual([other.id, task.id]);
    const done = (await (await call(session, "/api/tasks?status=done")).json()) as { tasks: { id: string }[] };
    expect(done.tasks.map((t) => t.id)).toEqual([task.id]);

    expect((await call(session, `/api/tasks/${task.id}`, "DELETE")).status).toBe(204);
    expect((await call(session, `/api/tasks/${task.id}`, "DELETE")).status).toBe(404);
  });

  it("answers 400 for bad bodies and queries", async () => {
    const session = await signup();
    const empty = await call(session, "/api/tasks", "POST", { title: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      error: { code: "invalid_input", fields: { title: expect.any(String) } },
    });
    expect((await call(session, "/api/tasks", "POST", {})).status).toBe(400);
    expect((await call(session, "/api/tasks", "POST", { title: "x", details: "y".repeat(4001) })).status).toBe(400);
    expect((await call(session, "/api/tasks?status=closed")).status).toBe(400);
    const { id } = (await (await call(session, "/api/tasks", "POST", { title: "t" })).json()) as { id: string };
    expect((await call(session, `/api/tasks/${id}`, "PATCH", {})).status).toBe(400);
    expect((await call(session, `/api/tasks/${id}`, "PATCH", { status: "closed" })).status).toBe(400);
    expect((await call(session, `/api/tasks/${id}`, "PATCH", "nope")).status).toBe(400);
  });

  it("answers 404 for another user's task", async () => {
    const alice = await signup();
    const bob = await signup();
    const { id } = (await (await call(alice, "/api/tasks", "POST", { title: "alice's" })).json()) as { id: string };
    const patch = await call(bob, `/api/tasks/${id}`, "PATCH", { status: "done" });
    expect(patch.status).toBe(404);
    expect(await patch.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await call(bob, `/api/tasks/${id}`, "DELETE")).status).toBe(404);
    expect(await (await call(bob, "/api/tasks")).json()).toEqual({ tasks: [] });
    const own = (await (await call(alice, "/api/tasks")).json()) as { tasks: { status: string }[] };
    expect(own.tasks).toMatchObject([{ status: "open" }]);
  });
});
