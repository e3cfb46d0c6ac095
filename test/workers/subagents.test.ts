// Subagents (issue 6): delegate runs a child conversation object with its own loop, streams its
// progress to the parent's sockets, reports its lifecycle as pod_event items, shares the parent's
// budget, and stops when the parent stops.
import { describe, expect, it } from "vitest";
import type { Message, ServerFrame } from "../../protocol";
import { marker, modelRequests, scriptModel, waitForModelRequests } from "../support/fake-openai-client";
import { api, uniqueName } from "./helpers";
import { chat, finalMessage, history, llmUrl, scenario } from "./turn-helpers";

const delegate = (task: string, extra: Record<string, unknown> = {}) => ({
  name: "delegate",
  arguments: { task, ...extra },
});
const podEvents = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === "system" && m.item.kind === "pod_event" ? [m.item] : []));
const childFrames = (frames: ServerFrame[]) =>
  frames.flatMap((f) => (f.type === "subagent_frame" ? [f.frame as ServerFrame] : []));

async function childScript(steps: Parameters<typeof scriptModel>[2]) {
  const key = uniqueName("child");
  await scriptModel(llmUrl, key, steps);
  return key;
}

describe("delegate", () => {
  it("runs a subagent in a child conversation, streams its progress and returns its answer", async () => {
    const child = await childScript([
      { tool_calls: [{ name: "vault_list", arguments: {} }], usage: { prompt_tokens: 100, completion_tokens: 10 } },
      { text: ["Found ", "nothing."], usage: { prompt_tokens: 120, completion_tokens: 5 } },
    ]);
    const s = await scenario([
      { tool_calls: [delegate(`List the vault ${marker(child)}`)], usage: { prompt_tokens: 50, completion_tokens: 5 } },
      { text: "The subagent found nothing.", usage: { prompt_tokens: 60, completion_tokens: 6 } },
    ]);
    const { done, frames } = await chat(s, "delegate it");
    expect(done.termination_reason).toBe("completed");
    // The child's tokens count against the parent: 55 + 66 (parent) + 110 + 125 (child).
    expect(done.usage.total_tokens).toBe(356);

    const progress = childFrames(frames);
    expect(progress.some((f) => f.type === "tool_start" && f.tool === "vault_list")).toBe(true);
    expect(
      progress
        .filter((f) => f.type === "text_delta")
        .map((f) => f.type === "text_delta" && f.delta)
        .join(""),
    ).toBe("Found nothing.");
    expect(progress.some((f) => f.type === "response_complete")).toBe(true);

    const messages = await history(s);
    const tool = messages.find((m) => m.role === "tool" && m.tool === "delegate");
    expect(tool).toMatchObject({
      status: "success",
      result: { answer: "Found nothing.", termination_reason: "completed", steps: 2 },
    });
    const result = tool?.role === "tool" ? (tool.result as { conversation_id: string; pod_name: string }) : undefined;
    expect(podEvents(messages)).toEqual([
      {
        kind: "pod_event",
        // The task rides along for people (the card names the work, not the pod); the body is unchanged.
        event: { type: "turn_ended", pod_name: result?.pod_name, task: `List the vault ${marker(child)}` },
        body: `[Notification]\npod \`${result?.pod_name}\` finished a turn`,
      },
    ]);
    // The pod event comes right after the call's result.
    expect(messages.findIndex((m) => m.role === "system" && m.item.kind === "pod_event")).toBe(
      messages.indexOf(tool as Message) + 1,
    );

    // The child conversation is the user's, kept apart from the list, with its own history.
    const list = (await (await api("/api/conversations", { headers: s.session.headers })).json()) as { id: string }[];
    expect(list.map((c) => c.id)).toEqual([s.conversationId]);
    const childHistory = await api(`/api/conversations/${result?.conversation_id}/messages`, {
      headers: s.session.headers,
    });
    const childMessages = ((await childHistory.json()) as { messages: Message[] }).messages;
    expect(childMessages[0]).toMatchObject({ role: "user", content: expect.stringContaining("List the vault") });
    expect(finalMessage(childMessages).content).toBe("Found nothing.");
    // A subagent is not offered request_input: it cannot pause for the user.
    const [childRequest] = await modelRequests(llmUrl, child);
    const offered = ((childRequest?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).not.toContain("request_input");
    expect(JSON.stringify(childRequest?.body.messages)).not.toContain("request_input");
    expect(offered).toContain("vault_list");
  });

  it("keeps task reminders for the user's own turns, not a subagent's", async () => {
    const list = { tool_calls: [{ name: "vault_list", arguments: {} }] };
    const child = await childScript([list, list, list, { text: "listed" }]);
    const s = await scenario([{ tool_calls: [delegate(`List ${marker(child)}`)] }, { text: "ok" }], {
      taskReminderRequests: 1,
    });
    await api("/api/tasks", { method: "POST", json: { title: "Open task" }, headers: s.session.headers });
    await chat(s, "delegate");
    const tool = (await history(s)).find((m) => m.role === "tool" && m.tool === "delegate");
    const childId = tool?.role === "tool" ? (tool.result as { conversation_id: string }).conversation_id : "";
    const childRes = await api(`/api/conversations/${childId}/messages`, { headers: s.session.headers });
    const childMessages = ((await childRes.json()) as { messages: Message[] }).messages;
    expect(childMessages.filter((m) => m.role === "system" && m.item.kind === "task_reminder")).toHaveLength(0);
    expect((await history(s)).filter((m) => m.role === "system" && m.item.kind === "task_reminder")).toHaveLength(1);
  });

  it("reports a child's error as pod_event errored and a failed call", async () => {
    const child = await childScript([{ error: { status: 400, message: "child model broke" } }]);
    const s = await scenario([{ tool_calls: [delegate(`Try ${marker(child)}`)] }, { text: "The subagent failed." }]);
    const { done } = await chat(s, "delegate");
    expect(done.termination_reason).toBe("completed");
    const messages = await history(s);
    const tool = messages.find((m) => m.role === "tool" && m.tool === "delegate");
    expect(tool).toMatchObject({ status: "error", error: expect.stringContaining("child model broke") });
    const [event] = podEvents(messages);
    expect(event?.event).toMatchObject({ type: "errored", message: expect.stringContaining("child model broke") });
    expect(event?.body).toMatch(/^\[Notification\]\npod `subagent-\w+` errored: /);
  });

  it("stops the child, aborting its model request, when the parent is stopped", async () => {
    const child = await childScript([{ text: ["Working ", "slowly"], hang: true }]);
    const s = await scenario([{ tool_calls: [delegate(`Take forever ${marker(child)}`)] }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `go ${marker(s.key)}` });
    await s.socket.next("subagent_frame", (f) => (f.frame as ServerFrame).type === "text_delta", { from });
    s.socket.send({ type: "agent_control", action: "stop" });
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("user_cancelled");
    const [childRequest] = await waitForModelRequests(llmUrl, child, (r) => r[0]?.aborted === true);
    expect(childRequest?.completed).toBe(false);
    const messages = await history(s);
    expect(podEvents(messages).map((e) => e.event.type)).toEqual(["shut_down"]);
    expect(finalMessage(messages).content).toMatch(/unfinished work was discarded/);
  });

  it("never gives a child more than the parent's remaining budget, and charges what it spent", async () => {
    const child = await childScript([
      { tool_calls: [{ name: "vault_list", arguments: {} }], usage: { prompt_tokens: 3500, completion_tokens: 500 } },
    ]);
    const s = await scenario(
      [
        {
          tool_calls: [delegate(`Spend ${marker(child)}`, { token_budget: 100000 })],
          usage: { prompt_tokens: 900, completion_tokens: 100 },
        },
      ],
      { tokenBudget: 5000 },
    );
    const { done } = await chat(s, "spend");
    // 1,000 spent, so the child may use 4,000 of its asked 100,000: it stops after 4,000, and so does the parent.
    expect(done).toMatchObject({ termination_reason: "token_budget", usage: { total_tokens: 5000 } });
    const tool = (await history(s)).find((m) => m.role === "tool" && m.tool === "delegate");
    expect(tool?.role === "tool" && tool.result).toMatchObject({ termination_reason: "token_budget" });
    expect(await modelRequests(llmUrl, child)).toHaveLength(1);
  });

  it("deletes the subagents' conversations with their parent", async () => {
    const child = await childScript([{ text: "child answer" }]);
    const s = await scenario([{ tool_calls: [delegate(`Small task ${marker(child)}`)] }, { text: "ok" }]);
    await chat(s, "delegate");
    const tool = (await history(s)).find((m) => m.role === "tool" && m.tool === "delegate");
    const childId = tool?.role === "tool" ? (tool.result as { conversation_id: string }).conversation_id : "";
    expect((await api(`/api/conversations/${childId}`, { headers: s.session.headers })).status).toBe(200);
    expect(
      (await api(`/api/conversations/${s.conversationId}`, { method: "DELETE", headers: s.session.headers })).status,
    ).toBe(204);
    expect((await api(`/api/conversations/${childId}`, { headers: s.session.headers })).status).toBe(404);
    expect((await api(`/api/conversations/${childId}/messages`, { headers: s.session.headers })).status).toBe(404);
  });

  it("reports nested delegation as scope_sub_delegated", async () => {
    const grandchild = await childScript([{ text: "deep answer" }]);
    const child = await childScript([
      { tool_calls: [delegate(`Go deeper ${marker(grandchild)}`)] },
      { text: "child answer" },
    ]);
    const s = await scenario([{ tool_calls: [delegate(`Delegate further ${marker(child)}`)] }, { text: "all done" }]);
    const { frames } = await chat(s, "nest");
    const events = podEvents(await history(s)).map((e) => e.event);
    const childPod = events.find((e) => e.type === "turn_ended")?.pod_name;
    const nested = events.find((e) => e.type === "scope_sub_delegated");
    expect(nested).toMatchObject({
      parent_pod: childPod,
      sub_pod: expect.stringMatching(/^subagent-/),
      task: `Go deeper ${marker(grandchild)}`,
    });
    // The grandchild's progress reaches the root's sockets, nested inside the child's frames.
    const nestedFrames = childFrames(frames).filter((f) => f.type === "subagent_frame");
    expect(nestedFrames.length).toBeGreaterThan(0);
  });

  it("runs parallel delegate calls at the same time, up to maxParallelTools", async () => {
    const a = await childScript([{ text: "a done", delay_ms: 400 }]);
    const b = await childScript([{ text: "b done", delay_ms: 400 }]);
    const s = await scenario(
      [{ tool_calls: [delegate(`A ${marker(a)}`), delegate(`B ${marker(b)}`)] }, { text: "both done" }],
      { maxParallelTools: 2 },
    );
    const started = Date.now();
    await chat(s, "two at once");
    const [ra] = await modelRequests(llmUrl, a);
    const [rb] = await modelRequests(llmUrl, b);
    expect(Math.abs(Date.parse(ra?.received_at ?? "") - Date.parse(rb?.received_at ?? ""))).toBeLessThan(300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(podEvents(await history(s)).filter((e) => e.event.type === "turn_ended")).toHaveLength(2);
  });
});
