import { describe, expect, inject, it } from "vitest";
import type { Message } from "../../protocol";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, signup, uniqueName } from "./helpers";

const llmUrl = inject("llmUrl");
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function history(session: { headers: Record<string, string> }, id: string, after = 0): Promise<Message[]> {
  const res = await api(`/api/conversations/${id}/messages?after=${after}`, { headers: session.headers });
  return ((await res.json()) as { messages: Message[] }).messages;
}

describe("conversation socket", () => {
  it("greets with hello and answers ping", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const socket = await connect(session, id);
    expect(socket.frames[0]).toMatchObject({ type: "hello", conversation_id: id, last_seq: 0, running: false });
    socket.send({ type: "ping" });
    await socket.next("pong");
    socket.close();
  });

  it("answers malformed frames with error and keeps the socket usable", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const socket = await connect(session, id);
    const bad = [
      "not json",
      JSON.stringify({ type: "launch" }),
      JSON.stringify({ type: "chat", content: "" }),
      JSON.stringify({ type: "chat", content: "x".repeat(70 * 1024) }),
    ];
    for (const [i, frame] of bad.entries()) {
      socket.send(frame);
      const error = await socket.next("error", () => true, { from: socket.frames.length - (i === 0 ? 0 : 0) });
      expect(error.message.length).toBeGreaterThan(0);
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(socket.frames.filter((f) => f.type === "error").map((f) => f.type === "error" && f.code)).toEqual([
      "invalid_frame",
      "invalid_frame",
      "invalid_frame",
      "too_large",
    ]);
    const from = socket.frames.length;
    socket.send({ type: "ping" });
    await socket.next("pong", () => true, { from });
    expect(await history(session, id)).toEqual([]);
    socket.close();
  });

  it("runs a turn against an OpenAI-compatible server, streams it, persists it and broadcasts to every tab", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("turn");
    await scriptModel(llmUrl, key, [
      { text: ["The answer ", "is ", "42."], usage: { prompt_tokens: 30, completion_tokens: 4 } },
    ]);
    const tabA = await connect(session, id);
    const tabB = await connect(session, id);
    tabA.send({ type: "chat", content: `What is the answer? ${marker(key)}` });
    const done = await tabA.next("response_complete");
    await tabB.next("response_complete");
    expect(done).toMatchObject({
      termination_reason: "completed",
      usage: { input_tokens: 30, output_tokens: 4, total_tokens: 34 },
    });

    const deltas = tabA.frames.flatMap((f) => (f.type === "text_delta" ? [f.delta] : []));
    expect(deltas.join("")).toBe("The answer is 42.");
    expect(deltas.length).toBeGreaterThan(1);

    const stored = await history(session, id);
    expect(stored.map((m) => m.seq)).toEqual(range(stored.length));
    expect(stored.filter((m) => m.role !== "system").map((m) => [m.seq, m.role])).toEqual([
      [1, "user"],
      [2, "agent"],
    ]);
    expect(stored[1]).toMatchObject({ content: "The answer is 42.", termination_reason: "completed" });
    // Both tabs saw exactly the persisted messages, in seq order.
    expect(tabA.messages()).toEqual(stored);
    expect(tabB.messages()).toEqual(stored);
    // The model received the user's message.
    const [request] = await modelRequests(llmUrl, key);
    expect(JSON.stringify(request?.body.messages)).toContain("What is the answer?");
    tabA.close();
    tabB.close();
  });

  it("keeps seq gapless over several turns and refuses a second turn while one runs", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("busy");
    await scriptModel(llmUrl, key, [{ text: "slow reply", delay_ms: 300 }]);
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `one ${marker(key)}` });
    await socket.next("agent_update", (f) => f.update_type === "agent_start");
    socket.send({ type: "chat", content: "two" });
    const busy = await socket.next("error");
    expect(busy.code).toBe("busy");
    await socket.next("response_complete");
    for (const n of [2, 3]) {
      const from = socket.frames.length;
      socket.send({ type: "chat", content: `turn ${n} ${marker(key)}` });
      await socket.next("response_complete", () => true, { from });
    }
    const stored = await history(session, id);
    expect(stored.map((m) => m.seq)).toEqual(range(stored.length));
    expect(stored.filter((m) => m.role === "user").map((m) => m.role === "user" && m.content.split(" [[")[0])).toEqual([
      "one",
      "turn 2",
      "turn 3",
    ]);
    socket.close();
  });

  it("resumes after a dropped socket with exactly the missed messages", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("resume");
    await scriptModel(llmUrl, key, [{ text: "first answer" }, { text: "second answer" }]);
    const tab = await connect(session, id);
    tab.send({ type: "chat", content: `first ${marker(key)}` });
    await tab.next("response_complete");
    const seen = tab.messages();
    const lastSeen = seen.at(-1)?.seq ?? 0;
    tab.close();

    // Another device goes on while this tab is away.
    const other = await connect(session, id);
    other.send({ type: "chat", content: `second ${marker(key)}` });
    await other.next("response_complete");
    other.close();

    const all = await history(session, id);
    const lastSeq = all.at(-1)?.seq ?? 0;
    expect(lastSeq).toBeGreaterThan(lastSeen);
    const back = await connect(session, id);
    expect(back.frames[0]).toMatchObject({ type: "hello", last_seq: lastSeq });
    back.send({ type: "resume", after_seq: lastSeen });
    await back.next("message", (f) => f.message.seq === lastSeq);
    await new Promise((r) => setTimeout(r, 50));
    const missed = back.messages();
    expect(missed).toEqual(all.filter((m) => m.seq > lastSeen));
    expect([...seen, ...missed]).toEqual(all);
    back.close();
  });

  it("never sends a socket the same seq twice, whatever it resumes from", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("nodup");
    await scriptModel(llmUrl, key, [{ text: "before you came" }, { text: "while you watched" }]);
    const first = await connect(session, id);
    first.send({ type: "chat", content: `one ${marker(key)}` });
    await first.next("response_complete");
    first.close();

    const tab = await connect(session, id);
    const joinedAt = (tab.frames[0] as { last_seq: number }).last_seq;
    tab.send({ type: "chat", content: `two ${marker(key)}` });
    await tab.next("response_complete");
    // A late resume (the live messages already arrived), repeated, then one from further back.
    tab.send({ type: "resume", after_seq: 2 });
    tab.send({ type: "resume", after_seq: 2 });
    tab.send({ type: "resume", after_seq: 0 });
    const all = await history(session, id);
    await tab.next("message", (f) => f.message.seq === 1);
    await new Promise((r) => setTimeout(r, 100));
    const seqs = tab.messages().map((m) => m.seq);
    expect(seqs).toEqual([...all.filter((m) => m.seq > joinedAt).map((m) => m.seq), ...range(joinedAt).slice(2), 1, 2]);
    expect(new Set(seqs).size).toBe(all.length);
    tab.close();
  });

  it("ends the turn with llm_error and an explanation when the model server fails", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("fail");
    await scriptModel(llmUrl, key, [{ error: { status: 400, message: "model exploded" } }]);
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `hi ${marker(key)}` });
    const done = await socket.next("response_complete");
    expect(done.termination_reason).toBe("llm_error");
    const [, agent] = await history(session, id);
    expect(agent).toMatchObject({ role: "agent", termination_reason: "llm_error" });
    expect(agent?.role === "agent" && agent.content).toMatch(/model exploded/);
    socket.close();
  });
});
