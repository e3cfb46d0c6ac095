// request_input (seed 003): pauses the loop, asks every tab, resumes with the answer, times out
// through a Durable Object alarm that survives eviction.

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { RUNNING_TURN_KEY } from "../../durable-objects/conversation/turn/turn-marker";
import { PENDING_INPUT_KEY } from "../../durable-objects/conversation/turn/waits/pending-input";
import { marker, modelRequests } from "../support/fake-openai-client";
import { connect, stubOf } from "./helpers";
import { finalMessage, history, llmUrl, requestText, scenario, updates } from "./turn-helpers";

const ask = { tool_calls: [{ name: "request_input", arguments: { question: "Which file should I read?" } }] };

describe("request_input", () => {
  it("pauses, shows the question to a tab that joins, and resumes with the answer", async () => {
    const s = await scenario([ask, { text: "Reading plan.md as you asked." }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `read something ${marker(s.key)}` });
    const asked = await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    expect(asked).toMatchObject({ question: "Which file should I read?", step: 1, timeout_s: 300 });

    const late = await connect(s.session, s.conversationId);
    expect(late.frames[0]).toMatchObject({
      type: "hello",
      running: true,
      pending_input: { question: "Which file should I read?", step: 1 },
    });

    late.send({ type: "agent_user_input", content: "plan.md" });
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("completed");
    const messages = await history(s);
    expect(messages.find((m) => m.role === "tool")).toMatchObject({
      tool: "request_input",
      status: "success",
      result: { answer: "plan.md" },
    });
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests[1]?.body ?? {})).toContain("plan.md");
    // Once answered, the question is gone.
    const after = await connect(s.session, s.conversationId);
    expect(after.frames[0]).not.toHaveProperty("pending_input");
    late.close();
    after.close();
  });

  it("carries the turn on when the answer comes after the object restarted", async () => {
    const s = await scenario([ask, { text: "Reading notes.md, as answered after the restart." }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `read something ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    // A fresh instance: the waiting turn is gone from memory, the question stays in storage.
    await runInDurableObject(stubOf(s.conversationId), async (instance) => {
      Object.assign(instance, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });

    const tab = await connect(s.session, s.conversationId);
    expect(tab.frames[0]).toMatchObject({ type: "hello", pending_input: { question: "Which file should I read?" } });
    tab.send({ type: "agent_user_input", content: "notes.md" });
    const done = await tab.next("response_complete");
    expect(done.termination_reason).toBe("completed");
    expect((await history(s)).find((m) => m.role === "tool")).toMatchObject({
      tool: "request_input",
      status: "success",
      result: { answer: "notes.md" },
    });
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests.at(-1)?.body ?? {})).toContain("notes.md");
    tab.close();
  });

  it("times out when the deadline alarm fires, with input_timeout", async () => {
    const s = await scenario([ask], { requestInputTimeoutSeconds: 10 });
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `read ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    // An alarm before the deadline (the running turn's watchdog) leaves the question waiting.
    expect(await runDurableObjectAlarm(stubOf(s.conversationId))).toBe(true);
    expect(s.socket.frames.slice(from).some((f) => f.type === "response_complete")).toBe(false);
    await pastDeadline(stubOf(s.conversationId));
    expect(await runDurableObjectAlarm(stubOf(s.conversationId))).toBe(true);
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("input_timeout");
    expect(updates(s.socket.frames.slice(from))).toContain("agent_request_input_timeout");
    expect(finalMessage(await history(s)).content).toMatch(/not answered within 10 s/);
  });

  it("still times out when the object that asked is gone (alarm on a fresh instance)", async () => {
    const s = await scenario([]);
    const stub = stubOf(s.conversationId);
    // What a turn that died with its object leaves behind: identity, the question, the running marker.
    const deadline = new Date(Date.now() + 60_000).toISOString();
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.put(PENDING_INPUT_KEY, { question: "Which file should I read?", step: 2, deadline });
      await state.storage.put(RUNNING_TURN_KEY, { started_at: new Date().toISOString() });
      await state.storage.setAlarm(Date.parse(deadline));
    });
    const late = await connect(s.session, s.conversationId);
    expect(late.frames[0]).toMatchObject({ type: "hello", pending_input: { question: "Which file should I read?" } });

    await pastDeadline(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const done = await s.socket.next("response_complete");
    expect(done.termination_reason).toBe("input_timeout");
    const final = finalMessage(await history(s));
    expect(final).toMatchObject({ termination_reason: "input_timeout", step: 2 });
    expect(final.content).toContain("Which file should I read?");
    const again = await connect(s.session, s.conversationId);
    expect(again.frames[0]).not.toHaveProperty("pending_input");
    late.close();
    again.close();
  });

  it("refuses an answer when nothing was asked", async () => {
    const s = await scenario([]);
    s.socket.send({ type: "agent_user_input", content: "hello?" });
    expect((await s.socket.next("error")).code).toBe("no_pending_input");
  });
});

/** The waiting question's deadline, live or stored, moved into the past: its alarm is now due. */
async function pastDeadline(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, async (instance, state) => {
    const past = new Date(Date.now() - 1000).toISOString();
    const pending = (
      instance as unknown as { opened?: { turns: { pending: { waiting?: { question: { deadline: string } } } } } }
    ).opened?.turns.pending;
    if (pending?.waiting) pending.waiting.question.deadline = past;
    const stored = await state.storage.get<{ deadline: string }>(PENDING_INPUT_KEY);
    if (stored) await state.storage.put(PENDING_INPUT_KEY, { ...stored, deadline: past });
  });
}
