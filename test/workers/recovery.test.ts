// Turn recovery inside workerd (issue 29): a running-turn record left by a dead instance (written here
// as a dying instance leaves it) is picked up by a fresh one. What each open call becomes is decided by
// the tool (a read-only MCP tool runs again, an MCP tool that may write does not and the model is told),
// a Stop pressed just before the restart still stops, `hello` says the turn is resuming, and the
// resumed turn keeps its limits. The real kills are test/e2e/recovery.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { NOT_RERUN, type TurnProgress } from "../../agent/turn/resume";
import { RUNNING_TURN_KEY, type TurnRecord } from "../../durable-objects/conversation/turn/turn-marker";
import type { AgentConfig, ToolMessage } from "../../protocol";
import { marker, modelRequests } from "../support/fake-openai-client";
import { mcpCalls } from "../support/mcp-calls";
import { api, connect } from "./helpers";
import { chat, history, llmUrl, type Scenario, scenario } from "./turn-helpers";

const mcpUrl = inject("mcpUrl");

type Task = { title: string };

const progress = (p: Partial<TurnProgress> = {}): TurnProgress => ({
  step: 1,
  input_tokens: 100,
  output_tokens: 20,
  elapsed_ms: 2000,
  warned: [],
  loop_warnings: [],
  consecutive_errors: 0,
  discarded_subagents: 0,
  ...p,
});

const record = (r: Partial<TurnRecord>): TurnRecord => ({
  version: 2,
  turn_id: crypto.randomUUID(),
  started_at: new Date().toISOString(),
  origin: { kind: "user", options: {} },
  calls: [],
  children: {},
  interruptions: 0,
  progress: progress(),
  ...r,
});

/** What a dying instance leaves: the record (and `more` entries) in storage, and a fresh instance to open it. */
async function dieWith(s: Scenario, left: TurnRecord, more: Record<string, unknown> = {}): Promise<void> {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
  await runInDurableObject(stub, async (instance, state) => {
    await state.storage.put({ ...more, [RUNNING_TURN_KEY]: left });
    Object.assign(instance, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
  });
}

describe("a turn resumed after a restart", () => {
  it("runs a read-only MCP call again, does not re-run one that may write, and tells the model", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { text: "Picked up again." }]);
    const added = await api("/api/mcp-servers", {
      method: "POST",
      json: { name: "local", url: mcpUrl },
      headers: s.session.headers,
    });
    expect(added.status).toBe(201);
    await chat(s, "start");
    const word = crypto.randomUUID();
    const before = await mcpCalls(mcpUrl);
    await dieWith(
      s,
      record({
        calls: [
          { call_id: "c-read", tool: "local__lookup", args: { word }, step: 1 },
          { call_id: "c-write", tool: "local__hang", args: {}, step: 1 },
        ],
      }),
    );

    const socket = await connect(s.session, s.conversationId);
    expect(socket.frames[0]).toMatchObject({ type: "hello", running: true });
    const done = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(done.termination_reason).toBe("completed");
    const updates = socket.frames.filter((f) => f.type === "agent_update").map((f) => f.update_type);
    expect(updates).toContain("agent_resumed");

    const tools = (await history(s)).filter((m): m is ToolMessage => m.role === "tool");
    expect(tools.find((t) => t.call_id === "c-read")).toMatchObject({ status: "success", result: `${word}: found` });
    expect(tools.find((t) => t.call_id === "c-write")).toMatchObject({ status: "error", error: NOT_RERUN });
    const after = await mcpCalls(mcpUrl);
    expect(after.calls.filter((c) => c.tool === "lookup" && JSON.stringify(c.args).includes(word))).toHaveLength(1);
    expect(after.calls.filter((c) => c.tool === "hang").length).toBe(
      before.calls.filter((c) => c.tool === "hang").length,
    );

    // The model reads both results, then the interrupt, in that order.
    const last = JSON.stringify((await modelRequests(llmUrl, s.key)).at(-1)?.body.messages);
    expect(last.indexOf(`${word}: found`)).toBeGreaterThan(0);
    expect(last.indexOf("may or may not have taken effect")).toBeGreaterThan(0);
    expect(last.indexOf("[Interrupted]")).toBeGreaterThan(last.indexOf(`${word}: found`));
    socket.close();
  });

  it("still stops when Stop was pressed just before the restart", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { text: "Should never be asked." }]);
    await chat(s, "start");
    const asked = (await modelRequests(llmUrl, s.key)).length;
    await dieWith(
      s,
      record({ stop_requested: true, calls: [{ call_id: "c1", tool: "vault_list", args: {}, step: 1 }] }),
    );
    const socket = await connect(s.session, s.conversationId);
    const done = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(done.termination_reason).toBe("user_cancelled");
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(asked);
    const tool = (await history(s)).find((m): m is ToolMessage => m.role === "tool" && m.call_id === "c1");
    expect(tool?.status).toBe("error");
    socket.close();
  });

  it("keeps the turn's limits: the steps and time already spent count, the restart's time does not", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { tool_calls: [{ name: "vault_list", arguments: {} }] }], {
      maxIterations: 3,
    });
    await chat(s, "start");
    // Two steps done of three, under a 10-step limit the user has since raised: the turn's own limit holds.
    await api("/api/settings/agent", { method: "PUT", json: { maxIterations: 10 }, headers: s.session.headers });
    const saved = (await (await api("/api/settings/agent", { headers: s.session.headers })).json()) as AgentConfig;
    const config: AgentConfig = { ...saved, maxIterations: 3 };
    await dieWith(s, record({ config, progress: progress({ step: 2, elapsed_ms: 1000 }) }));
    const socket = await connect(s.session, s.conversationId);
    const done = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(done.termination_reason).toBe("max_iterations");
    expect(done.steps).toBe(3);
    // Tokens already spent are in the turn's usage.
    expect(done.usage.input_tokens).toBeGreaterThanOrEqual(100);
    socket.close();
  });

  it("does not count the time the restart took against the turn's time limit", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { text: "Still in time." }], { timeoutSeconds: 30 });
    await chat(s, "start");
    const saved = (await (await api("/api/settings/agent", { headers: s.session.headers })).json()) as AgentConfig;
    // Started an hour ago with 25 s of its 30 spent when it was cut: 5 s are left, not minus an hour.
    await dieWith(
      s,
      record({
        started_at: new Date(Date.now() - 3_600_000).toISOString(),
        config: saved,
        progress: progress({ step: 1, elapsed_ms: 25_000 }),
      }),
    );
    const socket = await connect(s.session, s.conversationId);
    const done = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(done.termination_reason).toBe("completed");
    socket.close();
  });

  it("counts the time the turn had already run: what was left of its limit is all it gets", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { text: "Too late.", delay_ms: 4000 }], {
      timeoutSeconds: 30,
    });
    await chat(s, "start");
    const saved = (await (await api("/api/settings/agent", { headers: s.session.headers })).json()) as AgentConfig;
    await dieWith(s, record({ config: saved, progress: progress({ step: 1, elapsed_ms: 29_000 }) }));
    const socket = await connect(s.session, s.conversationId);
    const done = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(done.termination_reason).toBe("timeout");
    socket.close();
  });

  it("says in hello that the turn is resuming until it shows something new", async () => {
    const s = await scenario([{ text: "Earlier answer." }, { text: ["Again"], delay_ms: 1500 }]);
    await chat(s, "start");
    await dieWith(s, record({}));
    const first = await connect(s.session, s.conversationId);
    const second = await connect(s.session, s.conversationId);
    expect(second.frames[0]).toMatchObject({ type: "hello", running: true, resuming: true });
    await second.next("response_complete", () => true, { timeoutMs: 20_000 });
    const third = await connect(s.session, s.conversationId);
    expect(third.frames[0]).not.toHaveProperty("resuming");
    for (const socket of [first, second, third]) socket.close();
  });

  it("hands a parent that re-attaches the plain explanation of a subagent cut short a third time", async () => {
    const s = await scenario([{ text: "Earlier answer." }]);
    await chat(s, "start");
    const limits = { maxIterations: 5, tokenBudget: 10_000, timeoutSeconds: 60 };
    await dieWith(
      s,
      record({
        origin: { kind: "subagent", request: { task: "dig", limits, depth: 1, podName: "subagent-x" } },
        interruptions: 2,
      }),
    );
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
    const frames: unknown[] = [];
    const outcome = await stub.reattachSubagent(
      { conversationId: s.conversationId, userId: s.session.user.id },
      { onFrame: (f) => void frames.push(f), onEvent: () => undefined },
    );
    expect(outcome.termination_reason).toBe("interrupted");
    expect(outcome.answer).toMatch(/server restarted 3 times/);
  });

  it("ends the turn as before when the operator turned recovery off", async () => {
    const s = await scenario([{ text: "Earlier answer." }]);
    await chat(s, "start");
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
    await runInDurableObject(stub, async (instance, state) => {
      await state.storage.put(
        RUNNING_TURN_KEY,
        record({ calls: [{ call_id: "c1", tool: "vault_write", args: { path: "a.md", content: "x" }, step: 1 }] }),
      );
      // A fresh instance (the opened conversation forgotten) on an app with recovery off.
      Object.assign(instance, { conversation: undefined, env: { ...env, TURN_RECOVERY: "off" } });
    });
    const socket = await connect(s.session, s.conversationId);
    expect(socket.frames[0]).toMatchObject({ type: "hello", running: false });
    const messages = await history(s);
    expect(messages.at(-2)).toMatchObject({ role: "tool", call_id: "c1", status: "error" });
    expect(messages.at(-1)).toMatchObject({ role: "system", item: { kind: "interrupt" } });
    socket.close();
  });

  it("gives a call after the restart an id of its own when the model reuses one from before it", async () => {
    const twin = (title: string) => ({ name: "task_create", arguments: { title }, id: "call_twin" });
    const s = await scenario([
      { tool_calls: [twin("Before")] },
      { text: "Earlier answer." },
      { tool_calls: [twin("After")] },
      { text: "Done." },
    ]);
    const ask = { tool: "task_create", mode: "ask" };
    expect((await api("/api/tool-approvals", { method: "PUT", json: ask, headers: s.session.headers })).status).toBe(
      200,
    );
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `go ${marker(s.key)}` });
    const before = await s.socket.next("tool_approval_request", () => true, { from });
    s.socket.send({ type: "tool_approval", call_id: before.call_id, decision: "deny" });
    await s.socket.next("response_complete", () => true, { from });
    // Cut after step 1, its denial still kept (until the turn's end) as a turn in flight keeps it.
    const { call_id, tool, args, step, deadline } = before;
    await dieWith(s, record({ calls: [{ call_id, tool, args, step }] }), {
      [`approval:${call_id}`]: { call_id, tool, args, step, deadline, key: tool, decision: "denied" },
    });
    const socket = await connect(s.session, s.conversationId);
    const after = await socket.next("tool_approval_request", () => true, { timeoutMs: 20_000 });
    expect(after).toMatchObject({ args: { title: "After" }, step: 2 });
    expect(after.call_id).not.toBe(call_id);
    socket.send({ type: "tool_approval", call_id: after.call_id, decision: "approve" });
    expect((await socket.next("response_complete")).termination_reason).toBe("completed");
    const listed = (await (await api("/api/tasks", { headers: s.session.headers })).json()) as { tasks: Task[] };
    expect(listed.tasks.map((t) => t.title)).toEqual(["After"]);
    socket.close();
  });
});
