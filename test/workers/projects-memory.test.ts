// Projects, custom instructions and memory through the Worker and the conversation's object (issue 47,
// docs/protocol.md "Projects, instructions and memory"): what reaches the model's request (the context
// item before the first message, replayed as it is; an update before the next message when the
// instructions or the project change), a project's instructions and files only inside it, the memory tool
// saving where the conversation is and the memories reaching new conversations of their scope only, the
// switches, and ownership everywhere. Real D1, R2 and objects; the fake model.
import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol";
import { MAX_MEMORIES, MAX_PROJECTS, type Memory, type Project } from "../../protocol/projects";
import { modelRequests, type Step, scriptModel } from "../support/fake-openai-client";
import { api, connect, type Session, signup, uniqueName } from "./helpers";
import { chat, history, llmUrl, requestText, type Scenario } from "./turn-helpers";

const json = async <T>(res: Response): Promise<T> => {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
};

const call = (s: Session, method: string, path: string, body?: unknown) =>
  api(path, { method, headers: s.headers, ...(body === undefined ? {} : { json: body }) });

const instructions = (s: Session, body: Record<string, unknown>) => call(s, "PUT", "/api/settings/instructions", body);

const newProject = async (s: Session, body: Record<string, unknown>) =>
  json<Project>(await call(s, "POST", "/api/projects", body));

/** A conversation of the session's (in a project or not) with a socket and a script of its own. */
async function conversation(session: Session, steps: Step[], projectId?: string): Promise<Scenario> {
  const body = projectId ? { project_id: projectId } : {};
  const { id } = await json<{ id: string }>(await call(session, "POST", "/api/conversations", body));
  const key = uniqueName("k");
  await scriptModel(llmUrl, key, steps);
  return { session, conversationId: id, socket: await connect(session, id), key };
}

async function upload(session: Session, name: string, text: string): Promise<{ id: string }> {
  const res = await api(`/api/files?name=${encodeURIComponent(name)}`, {
    method: "POST",
    body: new TextEncoder().encode(text),
    headers: session.headers,
  });
  return json(res);
}

const requests = async (s: Scenario) => (await modelRequests(llmUrl, s.key)).map((r) => r.body);
const toolNames = (body: Record<string, unknown>) =>
  ((body.tools ?? []) as { function?: { name: string } }[]).map((t) => t.function?.name);
const contexts = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === "system" && m.item.kind === "context" ? [m.item] : []));

describe("custom instructions", () => {
  it("reach every new conversation before its first message, and a change reaches the next turn as a notice", async () => {
    const session = await signup();
    const saved = await instructions(session, {
      about: "I am a glaciologist in Oslo.",
      style: "Answer in metric units.",
    });
    expect(await json(saved)).toEqual({
      about: "I am a glaciologist in Oslo.",
      style: "Answer in metric units.",
      memory: true,
    });

    const s = await conversation(session, [{ text: "Noted." }, { text: "Again." }, { text: "Third." }]);
    await chat(s, "How thick is the ice?");
    const [first] = await requests(s);
    const text = requestText(first ?? {});
    expect(text).toContain("I am a glaciologist in Oslo.");
    expect(text).toContain("Answer in metric units.");
    // Before the user's message: the context is the start of the conversation's prefix.
    expect(text.indexOf("glaciologist")).toBeLessThan(text.indexOf("How thick is the ice?"));

    // Unchanged: the next request begins with every message of the first, byte for byte.
    await chat(s, "And in winter?");
    const [, second] = await requests(s);
    const messagesOf = (body: Record<string, unknown> | undefined) => (body?.messages ?? []) as unknown[];
    const before = messagesOf(first);
    expect(before.length).toBeGreaterThan(1);
    expect(messagesOf(second).slice(0, before.length)).toEqual(before);
    expect(contexts(await history(s))).toHaveLength(1);

    // Changed: the next turn is told, before its message, and what was sent before stays as it was.
    await instructions(session, { style: "Answer in one sentence." });
    await chat(s, "And in summer?");
    const all = await history(s);
    const items = contexts(all);
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ update: true, instructions: true });
    expect(items[1]?.body).toContain("Answer in one sentence.");
    const third = (await requests(s))[2];
    expect(messagesOf(third).slice(0, before.length)).toEqual(before);

    // Another user's conversation knows nothing of it.
    const other = await conversation(await signup(), [{ text: "Hi." }]);
    await chat(other, "Hello");
    expect(requestText((await requests(other))[0] ?? {})).not.toContain("glaciologist");
  });

  it("are never shown on a share link, with System messages or without", async () => {
    const session = await signup();
    await instructions(session, { about: "My bank is Northwind." });
    const project = await newProject(session, { name: "Taxes", instructions: "File by April." });
    await call(session, "POST", "/api/memories", { text: "The user's accountant is Ana." });
    const s = await conversation(session, [{ text: "Sure." }], project.id);
    await chat(s, "Help with taxes");
    expect(contexts(await history(s))).toHaveLength(1);
    const link = await json<{ id: string }>(
      await call(session, "POST", `/api/conversations/${s.conversationId}/shares`, { include_system: true }),
    );
    const shared = await api(`/api/shared/${link.id}`, { headers: { "CF-Connecting-IP": "198.51.100.7" } });
    const text = await shared.text();
    expect(shared.status).toBe(200);
    expect(text).toContain("Help with taxes");
    for (const secret of ["Northwind", "File by April", "Ana"]) expect(text).not.toContain(secret);
  });

  it("refuses bad input by field and keeps what was saved", async () => {
    const session = await signup();
    await instructions(session, { about: "Kept." });
    for (const body of [{ about: "x".repeat(4001) }, { memory: "yes" }, { colour: "blue" }]) {
      const res = await instructions(session, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await json(await call(session, "GET", "/api/settings/instructions"))).toMatchObject({ about: "Kept." });
    expect((await api("/api/settings/instructions")).status).toBe(401);
  });
});

describe("projects", () => {
  it("give their instructions and files to their conversations only, and a file is read with the file tools", async () => {
    const session = await signup();
    const project = await newProject(session, { name: "Thesis", instructions: "Cite glaciology papers by DOI." });
    const file = await upload(session, "outline.md", "# Outline\nChapter one: the Jostedal glacier.\n");
    const added = await call(session, "POST", `/api/projects/${project.id}/files`, { file_id: file.id });
    expect(added.status).toBe(201);
    const shown = await json<Project>(await call(session, "GET", `/api/projects/${project.id}`));
    expect(shown.files.map((f) => f.name)).toEqual(["outline.md"]);

    const inside = await conversation(session, [{ text: "On it." }], project.id);
    await chat(inside, "Start chapter one.");
    const request = (await requests(inside))[0] ?? {};
    const text = requestText(request);
    expect(text).toContain("Cite glaciology papers by DOI.");
    expect(text).toContain("Thesis");
    expect(text).toContain("the Jostedal glacier");
    expect(toolNames(request)).toContain("file_read");
    const item = contexts(await history(inside))[0];
    expect(item).toMatchObject({ project: { id: project.id, name: "Thesis" }, files: 1 });

    const outside = await conversation(session, [{ text: "Sure." }]);
    await chat(outside, "Start chapter one.");
    const otherText = requestText((await requests(outside))[0] ?? {});
    expect(otherText).not.toContain("Cite glaciology papers");
    expect(otherText).not.toContain("Jostedal");

    // The list and the conversation show where it belongs; a search can be held to the project.
    const listed = await json<{ id: string; project_id?: string }[]>(await call(session, "GET", "/api/conversations"));
    expect(listed.find((c) => c.id === inside.conversationId)?.project_id).toBe(project.id);
    expect(listed.find((c) => c.id === outside.conversationId)?.project_id).toBeUndefined();
  });

  it("start its conversations with the library entries and note folders it includes", async () => {
    const session = await signup();
    await call(session, "PUT", "/api/knowledge/house-style", { title: "House style", body: "Oxford commas, always." });
    await call(session, "PUT", "/api/notes/thesis/ch1.md", { content: "Chapter one draft." });
    const bad = await call(session, "POST", "/api/projects", { name: "X", knowledge: ["Not A Slug"] });
    expect(bad.status).toBe(400);
    const project = await newProject(session, { name: "Thesis", knowledge: ["house-style"], notes: ["thesis"] });
    expect(project).toMatchObject({ knowledge: ["house-style"], notes: ["thesis"] });
    const s = await conversation(session, [{ text: "Ready." }], project.id);
    await chat(s, "Let us write.");
    const text = requestText((await requests(s))[0] ?? {});
    expect(text).toContain("Oxford commas, always.");
    expect(text).toContain("thesis/ch1.md");
    const included = (await history(s)).filter((m) => m.role === "system" && m.source === "Project");
    expect(included.map((m) => m.role === "system" && m.item.kind)).toEqual(["knowledge", "file_attachment"]);
    // Changing what it includes is a change of the project: the next turn is told.
    await call(session, "PATCH", `/api/projects/${project.id}`, { knowledge: [] });
    await scriptModel(llmUrl, s.key, [{ text: "Noted." }]);
    await chat(s, "And now?");
    expect(contexts(await history(s)).map((c) => c.update ?? false)).toEqual([false, true]);
  });

  it("moves a conversation in with a notice at its next turn, keeps projects to their owner, and deletes one keeping its conversations", async () => {
    const session = await signup();
    const project = await newProject(session, { name: "Garden", instructions: "The garden is in zone 7." });
    const s = await conversation(session, [{ text: "One." }, { text: "Two." }]);
    await chat(s, "What grows well?");
    expect(contexts(await history(s))).toHaveLength(0);
    const moved = await call(session, "PATCH", `/api/conversations/${s.conversationId}`, { project_id: project.id });
    expect(await json(moved)).toMatchObject({ project_id: project.id });
    await chat(s, "And now?");
    const [item] = contexts(await history(s));
    expect(item).toMatchObject({ update: true, project: { name: "Garden" } });
    expect(requestText((await requests(s))[1] ?? {})).toContain("The garden is in zone 7.");

    const stranger = await signup();
    for (const [method, path, body] of [
      ["GET", `/api/projects/${project.id}`, undefined],
      ["PATCH", `/api/projects/${project.id}`, { name: "Mine" }],
      ["DELETE", `/api/projects/${project.id}`, undefined],
      ["POST", "/api/conversations", { project_id: project.id }],
    ] as const)
      expect((await call(stranger, method, path, body)).status, `${method} ${path}`).toBe(404);
    const theirs = await json<{ id: string }>(await call(stranger, "POST", "/api/conversations", {}));
    expect((await call(stranger, "PATCH", `/api/conversations/${theirs.id}`, { project_id: project.id })).status).toBe(
      404,
    );
    expect((await json<{ projects: Project[] }>(await call(stranger, "GET", "/api/projects"))).projects).toEqual([]);

    for (const body of [{ name: "" }, { name: "x".repeat(101) }, {}, { name: "A", colour: "red" }])
      expect((await call(session, "POST", "/api/projects", body)).status, JSON.stringify(body)).toBe(400);

    expect((await call(session, "DELETE", `/api/projects/${project.id}`)).status).toBe(204);
    const after = await json<{ id: string; project_id?: string }[]>(await call(session, "GET", "/api/conversations"));
    expect(after.find((c) => c.id === s.conversationId)).toBeDefined();
    expect(after.find((c) => c.id === s.conversationId)?.project_id).toBeUndefined();
  });

  it("runs its conversations with its defaults: limits, approach and tools switched off", async () => {
    const session = await signup();
    const bad = await call(session, "POST", "/api/projects", {
      name: "X",
      defaults: { agent: { decisionTree: "nope" } },
    });
    expect(bad.status).toBe(400);
    const project = await newProject(session, {
      name: "Focused",
      defaults: { agent: { maxIterations: 1 }, tools_off: ["web_fetch", "task_create"] },
    });
    expect(project.defaults).toEqual({
      agent: { maxIterations: 1 },
      tools_off: ["web_fetch", "task_create"],
      mcp_servers: null,
    });
    const inside = await conversation(
      session,
      [{ tool_calls: [{ name: "task_list", arguments: {} }] }, { text: "never asked" }],
      project.id,
    );
    const { done } = await chat(inside, "List my tasks.");
    // One step allowed: the turn ends at the limit after its first step instead of answering.
    expect(done.termination_reason).toBe("max_iterations");
    const names = toolNames((await requests(inside))[0] ?? {});
    expect(names).toContain("task_list");
    expect(names).not.toContain("task_create");
    expect(names).not.toContain("web_fetch");
    const outside = await conversation(session, [{ text: "Hi." }]);
    await chat(outside, "Hi");
    expect(toolNames((await requests(outside))[0] ?? {})).toContain("task_create");
  });

  it("holds the cap of projects per user under concurrent creates", async () => {
    const session = await signup();
    const tries = await Promise.all(
      Array.from({ length: MAX_PROJECTS + 5 }, (_, i) => call(session, "POST", "/api/projects", { name: `P${i}` })),
    );
    expect(tries.filter((r) => r.status === 201)).toHaveLength(MAX_PROJECTS);
    const refused = tries.filter((r) => r.status === 409);
    expect(refused).toHaveLength(5);
    expect(await refused[0]?.json()).toMatchObject({ error: { code: "conflict" } });
    const { projects } = await json<{ projects: Project[] }>(await call(session, "GET", "/api/projects"));
    expect(projects).toHaveLength(MAX_PROJECTS);
  });

  it("searches within a project", async () => {
    const session = await signup();
    const project = await newProject(session, { name: "Boats" });
    const inside = await conversation(session, [{ text: "A sloop has one mast." }], project.id);
    const outside = await conversation(session, [{ text: "A ketch has two masts." }]);
    await chat(inside, "Tell me about masts");
    await chat(outside, "Tell me about masts");
    const find = async (query: string) => {
      for (let i = 0; i < 50; i++) {
        const { results } = await json<{ results: { conversation_id: string }[] }>(
          await call(session, "GET", `/api/search?q=masts${query}`),
        );
        if (results.length >= (query ? 1 : 2)) return results.map((r) => r.conversation_id);
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the index never had both");
    };
    expect(new Set(await find(""))).toEqual(new Set([inside.conversationId, outside.conversationId]));
    expect(new Set(await find(`&project=${project.id}`))).toEqual(new Set([inside.conversationId]));
  });
});

describe("memory", () => {
  it("is saved by the agent where the conversation is, shown with its source, and reaches new conversations of its scope only", async () => {
    const session = await signup();
    const [a, b] = [await newProject(session, { name: "A" }), await newProject(session, { name: "B" })];
    const s = await conversation(
      session,
      [
        {
          tool_calls: [
            { name: "memory", arguments: { action: "save", text: "The user's boat is called Skarv." } },
            { name: "memory", arguments: { action: "save", text: "The user is left-handed.", scope: "user" } },
          ],
        },
        { text: "I will remember." },
      ],
      a.id,
    );
    await chat(s, "My boat is Skarv, and I am left-handed.");
    const tool = (await history(s)).find((m) => m.role === "tool" && m.tool === "memory");
    expect(tool).toMatchObject({ status: "success", result: { action: "save", memory: { project_id: a.id } } });
    const { memories } = await json<{ memories: Memory[] }>(await call(session, "GET", "/api/memories"));
    const boat = memories.find((m) => m.text.includes("Skarv"));
    const hand = memories.find((m) => m.text.includes("left-handed"));
    expect(boat).toMatchObject({ project_id: a.id, conversation_id: s.conversationId, seq: expect.any(Number) });
    expect(hand).toMatchObject({ project_id: null, conversation_id: s.conversationId });

    // The user corrects one in Settings.
    const edited = await call(session, "PATCH", `/api/memories/${boat?.id}`, {
      text: "The user's boat is called Skarv II.",
    });
    expect(await json(edited)).toMatchObject({ text: "The user's boat is called Skarv II." });

    const sameProject = await conversation(session, [{ text: "Hello." }], a.id);
    await chat(sameProject, "Hi");
    const sameText = requestText((await requests(sameProject))[0] ?? {});
    expect(sameText).toContain("Skarv II");
    expect(sameText).toContain("left-handed");

    const otherProject = await conversation(session, [{ text: "Hello." }], b.id);
    await chat(otherProject, "Hi");
    const otherText = requestText((await requests(otherProject))[0] ?? {});
    expect(otherText).not.toContain("Skarv");
    expect(otherText).toContain("left-handed");

    // Never another user's.
    const stranger = await signup();
    expect((await json<{ memories: Memory[] }>(await call(stranger, "GET", "/api/memories"))).memories).toEqual([]);
    expect((await call(stranger, "PATCH", `/api/memories/${hand?.id}`, { text: "x" })).status).toBe(404);
    expect((await call(stranger, "DELETE", `/api/memories/${hand?.id}`)).status).toBe(404);
    expect((await call(stranger, "POST", "/api/memories", { text: "x", project_id: a.id })).status).toBe(404);
  });

  it("off for the user, or for the project, saves nothing and gives no memory tool", async () => {
    const session = await signup();
    await call(session, "POST", "/api/memories", { text: "The user likes tea." });
    const quiet = await newProject(session, { name: "Quiet", memory: false });
    const inQuiet = await conversation(session, [{ text: "Fine." }], quiet.id);
    await chat(inQuiet, "I like coffee now.");
    const quietRequest = (await requests(inQuiet))[0] ?? {};
    expect(toolNames(quietRequest)).not.toContain("memory");
    expect(requestText(quietRequest)).not.toContain("likes tea");

    await instructions(session, { memory: false });
    const s = await conversation(session, [
      { tool_calls: [{ name: "memory", arguments: { action: "save", text: "The user likes coffee." } }] },
      { text: "OK." },
    ]);
    await chat(s, "I like coffee now.");
    expect(toolNames((await requests(s))[0] ?? {})).not.toContain("memory");
    const { memories } = await json<{ memories: Memory[] }>(await call(session, "GET", "/api/memories"));
    expect(memories.map((m) => m.text)).toEqual(["The user likes tea."]);
  });

  it("holds the cap of memories per user, for the user's writes and the agent's", async () => {
    const session = await signup();
    // Filled to one short of the cap, straight into the user's shard.
    const fill = Array.from({ length: MAX_MEMORIES - 1 }, (_, i) =>
      session.db
        .prepare("INSERT INTO memories (id, user_id, text) VALUES (?, ?, ?)")
        .bind(`m_fill_${i}`, session.user.id, `Fact ${i}.`),
    );
    for (let i = 0; i < fill.length; i += 100) await session.db.batch(fill.slice(i, i + 100));
    const tries = await Promise.all(
      [1, 2, 3].map((n) => call(session, "POST", "/api/memories", { text: `Late fact ${n}.` })),
    );
    expect(tries.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const s = await conversation(session, [
      { tool_calls: [{ name: "memory", arguments: { action: "save", text: "One fact too many." } }] },
      { text: "Full." },
    ]);
    await chat(s, "Remember this too.");
    const tool = (await history(s)).find((m) => m.role === "tool" && m.tool === "memory");
    expect(tool).toMatchObject({ status: "error", error: expect.stringContaining("memory is full") });
  });

  it("updates and forgets only what its conversation reaches", async () => {
    const session = await signup();
    const [a, b] = [await newProject(session, { name: "A" }), await newProject(session, { name: "B" })];
    const inB = await json<Memory>(
      await call(session, "POST", "/api/memories", { text: "B's secret plan.", project_id: b.id }),
    );
    const mine = await json<Memory>(await call(session, "POST", "/api/memories", { text: "The user runs." }));
    const s = await conversation(
      session,
      [
        {
          tool_calls: [
            { name: "memory", arguments: { action: "forget", id: inB.id } },
            { name: "memory", arguments: { action: "update", id: mine.id, text: "The user runs marathons." } },
          ],
        },
        { text: "Done." },
      ],
      a.id,
    );
    await chat(s, "Update what you know.");
    const tools = (await history(s)).filter((m) => m.role === "tool" && m.tool === "memory");
    expect(tools.map((t) => t.role === "tool" && t.status)).toEqual(["error", "success"]);
    expect(tools[1]).toMatchObject({ result: { action: "update", previous: "The user runs." } });
    const { memories } = await json<{ memories: Memory[] }>(await call(session, "GET", "/api/memories"));
    expect(memories.map((m) => m.text).sort()).toEqual(["B's secret plan.", "The user runs marathons."]);
  });
});
