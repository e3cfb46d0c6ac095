// Conversation titles (docs/protocol.md "Conversations", `title_source`; d1/titles.ts): the first message
// names a conversation (markdown stripped) as its turn starts; after the first answer the model writes a
// short title that replaces it once; a user's title always wins, before or after; a failed title call
// changes nothing; a turn that failed before any answer sends no title request. Also pins.
import { describe, expect, it } from "vitest";
import type { Conversation, ServerFrame } from "../../protocol";
import { type Step, scriptModel, titleRequests } from "../support/fake-openai-client";
import { api, createConversation, eventually, type Session, signup } from "./helpers";
import { chat, llmUrl, type Scenario, scenario } from "./turn-helpers";

async function get(session: Session, id: string): Promise<Conversation> {
  const res = await api(`/api/conversations/${id}`, { headers: session.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Conversation;
}

const patch = (session: Session, id: string, json: unknown) =>
  api(`/api/conversations/${id}`, { method: "PATCH", json, headers: session.headers });

/** A scenario whose title request is answered with `title` (the fake's default is "Fake model title"). */
async function titled(steps: Step[], title?: Step): Promise<Scenario> {
  const s = await scenario(steps);
  await scriptModel(llmUrl, s.key, steps, undefined, title);
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("conversation titles", () => {
  it("shows the first message without markdown, then the model's title once, sent to the open tab", async () => {
    const s = await titled([{ text: "Here is a plan." }, { text: "Sure." }], {
      text: '"**Cloud spend cap.**"',
      delay_ms: 400,
    });
    const { frames } = await chat(s, "**Cap cloud spend** at `$500` a month");
    // Before the model's title lands: the first message, markdown stripped.
    const early = await get(s.session, s.conversationId);
    expect(early.title_source).toBe("first_message");
    expect(early.title).toMatch(/^Cap cloud spend at \$500 a month/);
    expect(early.title).not.toMatch(/[*`]/);
    // The title frame comes after the turn's end, never before.
    expect(frames.some((f) => f.type === "conversation_title")).toBe(false);

    const frame = await s.socket.next("conversation_title", () => true, { timeoutMs: 10_000 });
    expect(frame).toEqual({ type: "conversation_title", conversation_id: s.conversationId, title: "Cloud spend cap" });
    expect(await get(s.session, s.conversationId)).toMatchObject({ title: "Cloud spend cap", title_source: "model" });

    // Once: a second turn asks for no new title.
    await chat(s, "And for storage?");
    await sleep(300);
    expect(await titleRequests(llmUrl, s.key)).toHaveLength(1);
    expect((await get(s.session, s.conversationId)).title).toBe("Cloud spend cap");
  });

  it("never replaces a rename made before the first answer, and sends no title request then", async () => {
    const s = await titled([{ text: "An answer." }]);
    expect((await patch(s.session, s.conversationId, { title: "My own name" })).status).toBe(200);
    await chat(s, "ask me a question");
    await sleep(500);
    expect(await get(s.session, s.conversationId)).toMatchObject({ title: "My own name", title_source: "user" });
    expect(await titleRequests(llmUrl, s.key)).toHaveLength(0);
  });

  it("never replaces a rename made while the title was being written, nor after it", async () => {
    const s = await titled([{ text: "An answer." }], { text: "Late model title", delay_ms: 800 });
    await chat(s, "ask me a question");
    // The title request is out; the user renames before it answers.
    await eventually(
      () => titleRequests(llmUrl, s.key),
      (r) => r.length === 1,
      "title request",
    );
    expect((await patch(s.session, s.conversationId, { title: "Renamed mid-way" })).status).toBe(200);
    await sleep(1_200);
    expect(await get(s.session, s.conversationId)).toMatchObject({ title: "Renamed mid-way", title_source: "user" });

    // After a model title: a rename wins too, and stays.
    const t = await titled([{ text: "An answer." }]);
    await chat(t, "ask me a question");
    await eventually(
      () => get(t.session, t.conversationId),
      (c) => c.title_source === "model",
      "model title",
    );
    expect((await patch(t.session, t.conversationId, { title: "Mine after all" })).status).toBe(200);
    await chat(t, "again");
    await sleep(300);
    expect(await get(t.session, t.conversationId)).toMatchObject({ title: "Mine after all", title_source: "user" });
  });

  it("keeps the first message's title when the title call fails, and shows no error", async () => {
    const s = await titled([{ text: "An answer." }], { error: { status: 400, message: "no titles today" } });
    const from = s.socket.frames.length;
    await chat(s, "# Budget *review* for Q3");
    await eventually(
      () => titleRequests(llmUrl, s.key),
      (r) => r.length === 1 && r[0]?.completed === true,
      "title request",
    );
    await sleep(300);
    const kept = await get(s.session, s.conversationId);
    expect(kept.title_source).toBe("first_message");
    expect(kept.title).toMatch(/^Budget review for Q3 /); // then the test's model marker
    expect(kept.title).not.toMatch(/[#*]/);
    const after: ServerFrame[] = s.socket.frames.slice(from);
    expect(after.filter((f) => f.type === "error" || f.type === "conversation_title")).toEqual([]);
  });

  it("sends no title request when the turn failed before any answer", async () => {
    const s = await titled([{ error: { status: 400, message: "bad request" } }]);
    const { done } = await chat(s, "Hello there");
    expect(done).toMatchObject({ termination_reason: "llm_error" });
    await sleep(500);
    expect(await titleRequests(llmUrl, s.key)).toHaveLength(0);
    expect((await get(s.session, s.conversationId)).title_source).toBe("first_message");
  });
});

describe("pinned conversations", () => {
  it("pins and unpins through PATCH, keeps it in the list, leaves the last activity alone, and only for the owner", async () => {
    const alice = await signup();
    const bob = await signup();
    const { id } = await createConversation(alice);
    const before = await get(alice, id);
    expect(before.pinned).toBe(false);

    const pinned = await patch(alice, id, { pinned: true });
    expect(pinned.status).toBe(200);
    expect(await pinned.json()).toMatchObject({ id, pinned: true, updated_at: before.updated_at });
    const list = (await (await api("/api/conversations", { headers: alice.headers })).json()) as Conversation[];
    expect(list.find((c) => c.id === id)?.pinned).toBe(true);

    // Another user cannot pin (or unpin) it: 404, nothing changes.
    const theirs = await patch(bob, id, { pinned: false });
    expect(theirs.status).toBe(404);
    expect((await get(alice, id)).pinned).toBe(true);

    expect(await (await patch(alice, id, { pinned: false })).json()).toMatchObject({ pinned: false });
    // A PATCH must change something, and nothing else.
    expect((await patch(alice, id, {})).status).toBe(400);
    expect((await patch(alice, id, { pinned: "yes" })).status).toBe(400);
  });
});
