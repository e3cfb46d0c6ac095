// Approval before risky tools (issue 30): a call of a tool that asks first waits on a card (every tab,
// hello), its turn's clock paused; Approve runs it, Deny and the deadline give the model a result that
// says so; parallel calls are decided one by one; "Always allow" becomes the tool's rule; a restart
// while a call waits keeps it waiting, and the call runs once when approved.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import type { McpServer, ServerFrame, ToolApprovals, ToolMessage } from "../../protocol";

type Task = { title: string };

import { marker, modelRequests } from "../support/fake-openai-client";
import { MCP_TEST_TOKEN } from "../support/mcp-calls";
import { api, connect, type Session, signup, stubOf, uniqueName } from "./helpers";
import { history, llmUrl, ownModel, requestText, type Scenario, scenario, systemTexts } from "./turn-helpers";

const mcpTokenUrl = inject("mcpTokenUrl");
const create = (title: string) => ({ name: "task_create", arguments: { title } });

async function setRule(session: Session, tool: string, mode: "ask" | "allow" | "default"): Promise<Response> {
  return api("/api/tool-approvals", { method: "PUT", json: { tool, mode }, headers: session.headers });
}

async function askFirst(s: Scenario, tool = "task_create"): Promise<void> {
  expect((await setRule(s.session, tool, "ask")).status).toBe(200);
}

async function tasks(session: Session): Promise<Task[]> {
  const res = await api("/api/tasks", { headers: session.headers });
  return ((await res.json()) as { tasks: Task[] }).tasks;
}

const toolMessages = async (s: Scenario) => (await history(s)).filter((m): m is ToolMessage => m.role === "tool");

function send(s: Scenario, content: string): number {
  const from = s.socket.frames.length;
  s.socket.send({ type: "chat", content: `${content} ${marker(s.key)}` });
  return from;
}

/** A fresh instance of the conversation's object, as after a deploy: the opened conversation forgotten. */
const restart = (s: Scenario) =>
  runInDurableObject(stubOf(s.conversationId), async (instance) => {
    Object.assign(instance, { conversation: undefined });
  });

const requestOf = (s: Scenario, from: number, callOf?: (f: ServerFrame) => boolean) =>
  s.socket.next("tool_approval_request", (f) => callOf?.(f) ?? true, { from });

describe("approvals", () => {
  it("waits for Approve from another tab, then runs the call once", async () => {
    const s = await scenario([{ tool_calls: [create("Renew passport")] }, { text: "Created it." }]);
    await askFirst(s);
    const from = send(s, "remind me");
    const asked = await requestOf(s, from);
    expect(asked).toMatchObject({ tool: "task_create", args: { title: "Renew passport" }, step: 1, timeout_s: 300 });
    // Nothing ran yet.
    expect(await tasks(s.session)).toEqual([]);

    const other = await connect(s.session, s.conversationId);
    expect(other.frames[0]).toMatchObject({
      type: "hello",
      running: true,
      pending_approvals: [{ call_id: asked.call_id, tool: "task_create", args: { title: "Renew passport" } }],
    });
    other.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve" });
    const decided = await s.socket.next("tool_approval_result", () => true, { from });
    expect(decided).toMatchObject({ call_id: asked.call_id, decision: "approved" });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");

    expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Renew passport"]);
    const [tool] = await toolMessages(s);
    expect(tool).toMatchObject({ tool: "task_create", status: "success", approval: "approved" });
    // Decided once: a second decision on the same call is refused, and a new tab sees nothing waiting.
    other.send({ type: "tool_approval", call_id: asked.call_id, decision: "deny" });
    expect((await other.next("error")).code).toBe("no_pending_approval");
    const late = await connect(s.session, s.conversationId);
    expect(late.frames[0]).not.toHaveProperty("pending_approvals");
    other.close();
    late.close();
  });

  it("gives the model the denial as the tool's result, and runs nothing", async () => {
    const s = await scenario([{ tool_calls: [create("Delete everything")] }, { text: "Understood, I did not." }]);
    await askFirst(s);
    const from = send(s, "clean up");
    const asked = await requestOf(s, from);
    s.socket.send({ type: "tool_approval", call_id: asked.call_id, decision: "deny" });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");

    expect(await tasks(s.session)).toEqual([]);
    const [tool] = await toolMessages(s);
    expect(tool).toMatchObject({ status: "error", approval: "denied" });
    expect(tool?.error).toMatch(/user denied this call of task_create/);
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests[1]?.body ?? {})).toContain("user denied this call");
    // The user's own No is not reported as a tool failure.
    expect(systemTexts(await history(s)).join("\n")).not.toMatch(/task_create/);
  });

  it("asks once per parallel call and decides each on its own", async () => {
    const s = await scenario([
      { tool_calls: [create("Keep me"), create("Drop me")] },
      { text: "One created, one not." },
    ]);
    await askFirst(s);
    const from = send(s, "two tasks");
    const first = await requestOf(
      s,
      from,
      (f) => f.type === "tool_approval_request" && f.args !== undefined && JSON.stringify(f.args).includes("Keep"),
    );
    const second = await requestOf(
      s,
      from,
      (f) => f.type === "tool_approval_request" && JSON.stringify(f.args).includes("Drop"),
    );
    expect(first.call_id).not.toBe(second.call_id);
    const hello = await connect(s.session, s.conversationId);
    expect((hello.frames[0] as { pending_approvals?: unknown[] }).pending_approvals).toHaveLength(2);
    hello.close();

    s.socket.send({ type: "tool_approval", call_id: second.call_id, decision: "deny" });
    await s.socket.next("tool_approval_result", (f) => f.call_id === second.call_id, { from });
    // The denied call's result does not wait for the other decision.
    await s.socket.next("tool_error", (f) => f.call_id === second.call_id, { from });
    expect(await tasks(s.session)).toEqual([]);
    s.socket.send({ type: "tool_approval", call_id: first.call_id, decision: "approve" });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");
    expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Keep me"]);
    const byCall = new Map((await toolMessages(s)).map((m) => [m.call_id, m]));
    expect(byCall.get(first.call_id)).toMatchObject({ status: "success", approval: "approved" });
    expect(byCall.get(second.call_id)).toMatchObject({ status: "error", approval: "denied" });
  });

  it("does not count the wait against the turn's time limit", async () => {
    const s = await scenario([{ tool_calls: [create("Slow decision")] }, { text: "Done." }], { timeoutSeconds: 10 });
    await askFirst(s);
    const from = send(s, "go");
    const asked = await requestOf(s, from);
    // Longer than the whole turn may run: the clock is paused while the card waits.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    s.socket.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve" });
    expect((await s.socket.next("response_complete", () => true, { from, timeoutMs: 15_000 })).termination_reason).toBe(
      "completed",
    );
  }, 30_000);

  it("saves Always allow as the tool's rule: the turn's next call runs at once", async () => {
    const s = await scenario([
      { tool_calls: [create("First")] },
      { tool_calls: [create("Second")] },
      { text: "Both created." },
    ]);
    await askFirst(s);
    const from = send(s, "two steps");
    const asked = await requestOf(s, from);
    s.socket.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve", always_allow: true });
    expect(await s.socket.next("tool_approval_result", () => true, { from })).toMatchObject({ always_allow: true });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");
    expect(s.socket.frames.slice(from).filter((f) => f.type === "tool_approval_request")).toHaveLength(1);
    expect((await tasks(s.session)).map((t) => t.title).sort()).toEqual(["First", "Second"]);
    const rules = (await (await api("/api/tool-approvals", { headers: s.session.headers })).json()) as ToolApprovals;
    expect(rules.rules).toContainEqual({ tool: "task_create", mode: "allow" });
    expect(rules.builtin.find((b) => b.tool === "task_create")).toMatchObject({ mode: "allow", default_mode: "allow" });
  });

  it("keeps a call waiting across a restart and runs it once when approved", async () => {
    const s = await scenario([{ tool_calls: [create("Survive restart")] }, { text: "Created after the restart." }]);
    await askFirst(s);
    const from = send(s, "go");
    const asked = await requestOf(s, from);
    await restart(s);
    const tab = await connect(s.session, s.conversationId);
    const hello = tab.frames[0];
    expect(hello).toMatchObject({ type: "hello", running: true });
    const again = await tab.next("tool_approval_request", (f) => f.call_id === asked.call_id);
    expect(again.deadline).toBe(asked.deadline);
    tab.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve" });
    expect((await tab.next("response_complete")).termination_reason).toBe("completed");
    expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Survive restart"]);
    const [tool] = await toolMessages(s);
    expect(tool).toMatchObject({ status: "success", approval: "approved" });
    tab.close();
  });

  it("denies a call nobody decided by its deadline, and the turn goes on", async () => {
    const s = await scenario([{ tool_calls: [create("Too late")] }, { text: "Nobody approved it." }], {
      requestInputTimeoutSeconds: 10,
    });
    await askFirst(s);
    const from = send(s, "go");
    const asked = await requestOf(s, from);
    expect(asked.timeout_s).toBe(10);
    const stub = stubOf(s.conversationId);
    await runInDurableObject(stub, async (_instance, state) => {
      const key = `approval:${asked.call_id}`;
      const stored = await state.storage.get<{ deadline: string }>(key);
      await state.storage.put(key, { ...stored, deadline: new Date(Date.now() - 1000).toISOString() });
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await s.socket.next("tool_approval_result", () => true, { from })).toMatchObject({ decision: "timed_out" });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");
    expect(await tasks(s.session)).toEqual([]);
    const [tool] = await toolMessages(s);
    expect(tool).toMatchObject({ status: "error", approval: "timed_out" });
    expect(tool?.error).toMatch(/nobody approved it in time/);
  });

  it("asks before an MCP tool that may change something, not before a read-only one", async () => {
    const text = uniqueName("x");
    const s = await scenario([
      { tool_calls: [{ name: "local__lookup", arguments: { key: "a" } }] },
      { tool_calls: [{ name: "local__echo", arguments: { text } }] },
      { text: "Done." },
    ]);
    const res = await api("/api/mcp-servers", {
      method: "POST",
      json: { name: "local", url: mcpTokenUrl, auth: { type: "bearer", token: MCP_TEST_TOKEN } },
      headers: s.session.headers,
    });
    const server = (await res.json()) as McpServer;
    const from = send(s, "look and echo");
    const asked = await requestOf(s, from);
    expect(asked.tool).toBe("local__echo");
    s.socket.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve" });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");
    expect(s.socket.frames.slice(from).filter((f) => f.type === "tool_approval_request")).toHaveLength(1);
    // The user's rule overrides the default: keyed by the server's id.
    expect((await setRule(s.session, `mcp:${server.id}:echo`, "allow")).status).toBe(200);
    const rules = (await (await api("/api/tool-approvals", { headers: s.session.headers })).json()) as ToolApprovals;
    expect(rules.rules).toContainEqual({ tool: `mcp:${server.id}:echo`, mode: "allow" });
  });

  it("validates rules: unknown tools, another user's server, bad modes", async () => {
    const owner = await signup();
    const res = await api("/api/mcp-servers", {
      method: "POST",
      json: { name: "theirs", url: mcpTokenUrl },
      headers: owner.headers,
    });
    const theirs = (await res.json()) as McpServer;
    const me = await signup();
    const listed = (await (await api("/api/tool-approvals", { headers: me.headers })).json()) as ToolApprovals;
    expect(listed.builtin.map((b) => b.tool)).toEqual(
      expect.arrayContaining(["vault_write", "task_create", "delegate"]),
    );
    expect(listed.builtin.map((b) => b.tool)).not.toContain("request_input");
    expect(listed.builtin.find((b) => b.tool === "vault_read")).toMatchObject({ writes: false, mode: "allow" });
    expect(listed.rules).toEqual([]);

    const unknown = await setRule(me, "no_such_tool", "ask");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: "invalid_input", fields: { tool: "no such built-in tool" } },
    });
    expect((await setRule(me, `mcp:${theirs.id}:echo`, "allow")).status).toBe(400);
    const bad = await api("/api/tool-approvals", {
      method: "PUT",
      json: { tool: "task_create", mode: "sometimes" },
      headers: me.headers,
    });
    expect(bad.status).toBe(400);
    expect((await setRule(me, "task_create", "ask")).status).toBe(200);
    const back = await setRule(me, "task_create", "default");
    expect(((await back.json()) as ToolApprovals).rules).toEqual([]);
    expect((await api("/api/tool-approvals")).status).toBe(401);
  });

  describe("calls the model gave one id", () => {
    const twin = (title: string) => ({ ...create(title), id: "call_twin" });
    /** Two calls of one answer with one id, on the Responses API, which passes the model's ids on as they are. */
    async function twins(): Promise<Scenario> {
      const s = await scenario([{ tool_calls: [twin("Keep me"), twin("Drop me")] }, { text: "One of two." }]);
      await ownModel(s.session, "responses");
      return s;
    }
    const cardOf = (s: Scenario, from: number, title: string) =>
      requestOf(s, from, (f) => f.type === "tool_approval_request" && JSON.stringify(f.args).includes(title));

    /** Each call of the model's request (Responses input, by its arguments) with the outputs sent under its id. */
    function resultsByCall(body: Record<string, unknown>): Record<string, string[]> {
      type Item = { type?: string; call_id?: string; arguments?: string; output?: unknown };
      const items = body.input as Item[];
      return Object.fromEntries(
        items
          .filter((i) => i.type === "function_call")
          .map((c) => [
            c.arguments,
            items
              .filter((i) => i.type === "function_call_output" && i.call_id === c.call_id)
              .map((i) => String(i.output)),
          ]),
      );
    }

    it("does not take a denial in one step for a later step's call with the same id", async () => {
      const s = await scenario([
        { tool_calls: [twin("Drop me")] },
        { tool_calls: [twin("Keep me")] },
        { text: "One of two." },
      ]);
      await askFirst(s);
      const from = send(s, "two steps");
      const drop = await cardOf(s, from, "Drop me");
      s.socket.send({ type: "tool_approval", call_id: drop.call_id, decision: "deny" });
      const keep = await cardOf(s, from, "Keep me");
      expect(keep).toMatchObject({ step: 2 });
      expect(keep.call_id).not.toBe(drop.call_id);
      s.socket.send({ type: "tool_approval", call_id: keep.call_id, decision: "approve" });
      expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");
      expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Keep me"]);
    });

    it("shows a card for each, decided on its own, and the model reads each result with its call", async () => {
      const s = await twins();
      await askFirst(s);
      const from = send(s, "two tasks");
      const keep = await cardOf(s, from, "Keep me");
      const drop = await cardOf(s, from, "Drop me");
      expect(keep.call_id).not.toBe(drop.call_id);
      s.socket.send({ type: "tool_approval", call_id: drop.call_id, decision: "deny" });
      await s.socket.next("tool_error", (f) => f.call_id === drop.call_id, { from });
      s.socket.send({ type: "tool_approval", call_id: keep.call_id, decision: "approve" });
      expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");

      expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Keep me"]);
      const byCall = new Map((await toolMessages(s)).map((m) => [m.call_id, m]));
      expect(byCall.get(keep.call_id)).toMatchObject({ args: { title: "Keep me" }, status: "success" });
      expect(byCall.get(drop.call_id)).toMatchObject({ args: { title: "Drop me" }, approval: "denied" });
      const [, next] = await modelRequests(llmUrl, s.key);
      expect(resultsByCall(next?.body ?? {})).toEqual({
        '{"title":"Keep me"}': [expect.stringContaining("Keep me")],
        '{"title":"Drop me"}': [expect.stringContaining("user denied this call")],
      });
    });

    it("keeps both waiting across a restart, and each goes its own way", async () => {
      const s = await twins();
      await askFirst(s);
      const from = send(s, "two tasks");
      const keep = await cardOf(s, from, "Keep me");
      const drop = await cardOf(s, from, "Drop me");
      await restart(s);
      const tab = await connect(s.session, s.conversationId);
      const waiting = (tab.frames[0] as { pending_approvals?: { call_id: string }[] }).pending_approvals;
      expect(waiting?.map((p) => p.call_id).sort()).toEqual([keep.call_id, drop.call_id].sort());
      await tab.next("tool_approval_request", (f) => f.call_id === keep.call_id);
      await tab.next("tool_approval_request", (f) => f.call_id === drop.call_id);
      tab.send({ type: "tool_approval", call_id: keep.call_id, decision: "approve" });
      tab.send({ type: "tool_approval", call_id: drop.call_id, decision: "deny" });
      expect((await tab.next("response_complete")).termination_reason).toBe("completed");
      expect((await tasks(s.session)).map((t) => t.title)).toEqual(["Keep me"]);
      const results = (await toolMessages(s)).map((m) => [m.call_id, m.status]);
      expect(results.sort()).toEqual(
        [
          [keep.call_id, "success"],
          [drop.call_id, "error"],
        ].sort(),
      );
      tab.close();
    });

    it("resumes only the one still waiting when a restart comes after its twin ran", async () => {
      const s = await twins();
      await askFirst(s);
      const from = send(s, "two tasks");
      const keep = await cardOf(s, from, "Keep me");
      const drop = await cardOf(s, from, "Drop me");
      s.socket.send({ type: "tool_approval", call_id: keep.call_id, decision: "approve" });
      await s.socket.next("tool_complete", (f) => f.call_id === keep.call_id, { from });
      await restart(s);
      const tab = await connect(s.session, s.conversationId);
      expect(tab.frames[0]).toMatchObject({ pending_approvals: [{ call_id: drop.call_id }] });
      await tab.next("tool_approval_request", (f) => f.call_id === drop.call_id);
      tab.send({ type: "tool_approval", call_id: drop.call_id, decision: "approve" });
      expect((await tab.next("response_complete")).termination_reason).toBe("completed");
      // The first ran once, before the restart; the second once, after it.
      expect((await tasks(s.session)).map((t) => t.title).sort()).toEqual(["Drop me", "Keep me"]);
      expect((await toolMessages(s)).map((m) => m.call_id).sort()).toEqual([keep.call_id, drop.call_id].sort());
      tab.close();
    });
  });

  it("refuses a decision for a call that is not waiting", async () => {
    const s = await scenario([]);
    s.socket.send({ type: "tool_approval", call_id: "nope", decision: "approve" });
    expect((await s.socket.next("error")).code).toBe("no_pending_approval");
    s.socket.send({ type: "tool_approval", call_id: "x", decision: "maybe" });
    expect((await s.socket.next("error", (f) => f.code !== "no_pending_approval")).code).toBe("invalid_frame");
  });
});
