// Issue 27: a conversation is a tree on one append-only log. Through the real object and the fake model:
// seqs stay gapless and nothing is rewritten; an edit or a regenerate starts a branch whose requests hold
// the current path only; switching back replays that branch's requests byte for byte; a client without
// `tree` reads the current path as a linear conversation; every tab hears of a switch; a running turn is
// never branched from underneath; a compaction belongs to the path it summarises.

import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Message, SystemItem } from "../../protocol";
import { marker, modelRequests, type RecordedRequest, scriptModel } from "../support/fake-openai-client";
import { api, connect } from "./helpers";
import { chat, llmUrl, type Scenario, scenario } from "./turn-helpers";

const vars = env as unknown as Record<string, string | undefined>;
afterEach(() => {
  delete vars.OPENAI_CONTEXT_WINDOW;
});

const requestMessages = (r: RecordedRequest | undefined) =>
  (r?.body.messages ?? []) as { role: string; content: unknown }[];
const texts = (r: RecordedRequest | undefined) => JSON.stringify(requestMessages(r));
const lastRequest = async (s: Scenario) => (await modelRequests(llmUrl, s.key)).at(-1);

async function messages(s: Scenario, query = ""): Promise<{ messages: Message[]; leaf_seq: number }> {
  const res = await api(`/api/conversations/${s.conversationId}/messages?limit=1000${query}`, {
    headers: s.session.headers,
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** Sends a frame that runs a turn (an edit or a regenerate) and waits for its end. */
async function turn(s: Scenario, frame: Record<string, unknown>) {
  const from = s.socket.frames.length;
  s.socket.send(frame);
  const done = await s.socket.next("response_complete", () => true, { from, timeoutMs: 20_000 });
  return { done, frames: s.socket.frames.slice(from) };
}

async function switchTo(s: Scenario, seq: number): Promise<number> {
  const from = s.socket.frames.length;
  s.socket.send({ type: "switch_branch", seq });
  return (await s.socket.next("branch_switched", () => true, { from })).leaf_seq;
}

const userSeqs = (log: Message[], text: string) =>
  log.filter((m) => m.role === "user" && m.content.startsWith(text)).map((m) => m.seq);

/** A conversation of three turns: "one", "two", "three", answered A1, A2, A3. */
async function threeTurns(): Promise<Scenario> {
  const s = await scenario([{ text: "A1" }, { text: "A2" }, { text: "A3" }]);
  for (const q of ["one", "two", "three"]) await chat(s, q);
  return s;
}

describe("conversations as trees", () => {
  it("edits the first message on a new branch: gapless seqs, the old branch whole, the request from the path", async () => {
    const s = await threeTurns();
    const before = await messages(s, "&view=tree");
    const [one] = userSeqs(before.messages, "one");
    await scriptModel(llmUrl, s.key, [{ text: "B1" }]);
    const { frames } = await turn(s, { type: "chat", content: `uno ${marker(s.key)}`, edit_seq: one });

    // Everyone hears the branch point before the new branch's first message, which follows nothing.
    const switched = frames.findIndex((f) => f.type === "branch_switched");
    const firstMessage = frames.findIndex((f) => f.type === "message");
    expect(switched).toBeGreaterThanOrEqual(0);
    expect(switched).toBeLessThan(firstMessage);
    expect(frames[switched]).toEqual({ type: "branch_switched", leaf_seq: 0 });

    const tree = await messages(s, "&view=tree");
    expect(tree.messages.map((m) => m.seq)).toEqual(tree.messages.map((_, i) => i + 1));
    expect(tree.messages.slice(0, before.messages.length)).toEqual(before.messages);
    const edited = tree.messages.find((m) => m.role === "user" && m.content.startsWith("uno"));
    expect(edited?.parent_seq).toBe(0);
    expect(tree.messages.every((m) => m.parent_seq !== undefined && m.parent_seq < m.seq)).toBe(true);

    // The current path is the new branch only, and so is the model's request.
    const path = await messages(s);
    expect(path.leaf_seq).toBe(tree.messages.at(-1)?.seq);
    expect(
      path.messages.map((m) => (m.role === "user" || m.role === "agent" ? m.content.split(" [[")[0] : m.role)),
    ).toEqual(["uno", "B1"]);
    const request = texts(await lastRequest(s));
    expect(request).toContain("uno");
    for (const gone of ["one", "A1", "two", "A3"]) expect(request).not.toContain(`"${gone}`);

    // The old branch is still whole, readable by its leaf.
    const old = await messages(s, `&leaf=${before.leaf_seq}`);
    expect(old.messages).toEqual(before.messages);
    expect(
      (await api(`/api/conversations/${s.conversationId}/messages?leaf=999`, { headers: s.session.headers })).status,
    ).toBe(404);
  });

  it("regenerates a middle answer from after its message, and switching back replays that branch byte for byte", async () => {
    const s = await threeTurns();
    const original = await modelRequests(llmUrl, s.key);
    const log = (await messages(s)).messages;
    const answer2 = log.find((m) => m.role === "agent" && m.content === "A2");
    await scriptModel(llmUrl, s.key, [{ text: "A2 again" }, { text: "after A3" }]);
    await turn(s, { type: "regenerate", seq: answer2?.seq });

    // The regenerated turn's request is the original second turn's, byte for byte (same path up to "two").
    const regenerated = await lastRequest(s);
    expect(JSON.stringify(requestMessages(regenerated))).toBe(JSON.stringify(requestMessages(original[1])));
    const path = (await messages(s)).messages;
    const [two] = userSeqs(log, "two");
    const again = path.find((m) => m.role === "agent" && m.content === "A2 again");
    expect(again?.parent_seq).toBe(two);
    expect(path.some((m) => m.role === "user" && m.content.startsWith("three"))).toBe(false);
    // Nothing was duplicated: one "two" in the whole log.
    expect(userSeqs((await messages(s, "&view=tree")).messages, "two")).toHaveLength(1);

    // Back to the first version (the one holding A2): the path ends where that branch ended…
    const leaf = await switchTo(s, answer2?.seq ?? 0);
    expect(leaf).toBe(log.at(-1)?.seq);
    // …and after a restart, its next request begins with the branch's last request, byte for byte.
    s.socket.close();
    await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId)));
    s.socket = await connect(s.session, s.conversationId);
    expect(s.socket.frames[0]).toMatchObject({ type: "hello", leaf_seq: leaf });
    await chat(s, "four");
    const next = requestMessages(await lastRequest(s));
    const before = requestMessages(original[2]);
    expect(JSON.stringify(next.slice(0, before.length + 1))).toBe(JSON.stringify([...before, next[before.length]]));
    expect(JSON.stringify(next)).not.toContain("A2 again");
  });

  it("resumes the current path for a linear client and every branch with `tree`, never a seq twice", async () => {
    const s = await threeTurns();
    const [two] = userSeqs((await messages(s)).messages, "two");
    await scriptModel(llmUrl, s.key, [{ text: "B2" }]);
    await turn(s, { type: "chat", content: `dos ${marker(s.key)}`, edit_seq: two });
    const tree = (await messages(s, "&view=tree")).messages;
    const path = (await messages(s)).messages;
    expect(path.length).toBeLessThan(tree.length);

    const linear = await connect(s.session, s.conversationId);
    linear.send({ type: "resume", after_seq: 0 });
    await linear.next("message", (f) => f.message.seq === path.at(-1)?.seq);
    expect(linear.messages()).toEqual(path);

    const full = await connect(s.session, s.conversationId);
    full.send({ type: "resume", after_seq: 0, tree: true });
    full.send({ type: "resume", after_seq: 0, tree: true });
    // A ping spelled with a space reaches the object (not the runtime's auto-answer), after both resumes.
    full.send('{"type": "ping"}');
    await full.next("pong");
    expect(full.messages()).toEqual(tree);
  });

  it("tells every tab of a switch, and refuses to branch under a running turn or from a seq it lacks", async () => {
    const s = await threeTurns();
    const other = await connect(s.session, s.conversationId);
    const log = (await messages(s)).messages;
    const [one] = userSeqs(log, "one");
    expect(await switchTo(s, one ?? 0)).toBe(log.at(-1)?.seq);
    await other.next("branch_switched");

    s.socket.send({ type: "switch_branch", seq: 999 });
    expect(await s.socket.next("error")).toMatchObject({
      code: "invalid_frame",
      message: expect.stringContaining("seq"),
    });
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: "x", edit_seq: log.find((m) => m.role === "agent")?.seq });
    expect(await s.socket.next("error", () => true, { from })).toMatchObject({
      code: "invalid_frame",
      message: expect.stringContaining("edit_seq"),
    });

    // A turn that waits on the model: switching, editing and regenerating are all refused as busy.
    await scriptModel(llmUrl, s.key, [{ text: "slow", delay_ms: 1500 }]);
    s.socket.send({ type: "chat", content: `four ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_start");
    const tried = s.socket.frames.length;
    s.socket.send({ type: "switch_branch", seq: one });
    s.socket.send({ type: "regenerate", seq: one });
    s.socket.send({ type: "chat", content: "uno", edit_seq: one });
    await s.socket.next("response_complete", () => true, { from: tried, timeoutMs: 20_000 });
    const errors = s.socket.frames.slice(tried).filter((f) => f.type === "error");
    expect(errors.map((f) => (f.type === "error" ? f.code : ""))).toEqual(["busy", "busy", "busy"]);
    expect(s.socket.frames.slice(tried).some((f) => f.type === "branch_switched")).toBe(false);
  });

  it("keeps a compaction on the path it summarises", async () => {
    vars.OPENAI_CONTEXT_WINDOW = "6000";
    const filler = (i: number) => `turn ${i} `.repeat(200);
    const s = await scenario([]);
    await scriptModel(llmUrl, s.key, [{ text: `An answer. ${filler(0)}` }]);
    for (let i = 0; i < 10; i++) await chat(s, `Question ${i}: ${filler(i)}`);
    const log = (await messages(s)).messages;
    const compaction = log.find((m) => m.role === "system" && m.item.kind === "compaction");
    if (compaction?.role !== "system") throw new Error("no compaction in 10 long turns");
    const through = (compaction.item as Extract<SystemItem, { kind: "compaction" }>).through_seq;

    // A branch from before the compaction: no summary in its request, only its own path's messages.
    const [second] = userSeqs(log, "Question 1");
    await turn(s, { type: "chat", content: `A new second question ${marker(s.key)}`, edit_seq: second });
    const branched = texts(await lastRequest(s));
    expect(branched).not.toContain(compaction.item.body.slice(0, 40));
    expect(branched).toContain("Question 0");
    expect(branched).not.toContain("Question 2");

    // Back on the compacted branch, the request starts from the summary again, not from the messages it covers.
    await switchTo(s, log.at(-1)?.seq ?? 0);
    await chat(s, "And one more");
    const back = texts(await lastRequest(s));
    expect(back).toContain(compaction.item.body.slice(0, 40));
    expect(back).not.toContain("A new second question");
    const covered = log.find((m) => m.seq <= through && m.role === "user");
    expect(back).not.toContain(covered?.role === "user" ? covered.content.slice(0, 30) : "?");
  }, 60_000);
});
