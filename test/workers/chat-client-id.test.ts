// A message sent again is not started twice (issue 41, docs/protocol.md "chat"): a chat frame's
// `client_id` is kept on its user message, and the same id again (the client never saw its message
// arrive: the socket dropped, the page reloaded) is answered `chat_duplicate` with the message's seq;
// nothing new is written and the model is not asked again. Against the object's real storage, also
// after the object was evicted.
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { marker, modelRequests } from "../support/fake-openai-client";
import { connect } from "./helpers";
import { history, llmUrl, scenario } from "./turn-helpers";

const users = (messages: Awaited<ReturnType<typeof history>>) => messages.filter((m) => m.role === "user");

describe("chat client_id", () => {
  it("keeps the id on the message and answers the same id again with chat_duplicate, after an eviction too", async () => {
    const s = await scenario([{ text: "First answer." }, { text: "Second answer." }]);
    const content = `Hello ${marker(s.key)}`;
    s.socket.send({ type: "chat", content, client_id: "c-first-0001" });
    await s.socket.next("response_complete");
    const [sent] = users(await history(s));
    expect(sent).toMatchObject({ role: "user", content, client_id: "c-first-0001" });

    // The same frame again on the same socket, then from a new socket of a freshly woken object.
    let from = s.socket.frames.length;
    s.socket.send({ type: "chat", content, client_id: "c-first-0001" });
    expect(await s.socket.next("chat_duplicate", () => true, { from })).toEqual({
      type: "chat_duplicate",
      client_id: "c-first-0001",
      seq: sent?.seq,
    });
    await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId)));
    const again = await connect(s.session, s.conversationId);
    again.send({ type: "chat", content, client_id: "c-first-0001" });
    expect(await again.next("chat_duplicate")).toMatchObject({ client_id: "c-first-0001", seq: sent?.seq });
    expect(again.frames.some((f) => f.type === "agent_update")).toBe(false);
    expect(users(await history(s))).toHaveLength(1);
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(1);

    // Another id is another message.
    from = again.frames.length;
    again.send({ type: "chat", content: `Again ${marker(s.key)}`, client_id: "c-second-002" });
    await again.next("response_complete", () => true, { from });
    expect(users(await history(s)).map((m) => m.role === "user" && m.client_id)).toEqual([
      "c-first-0001",
      "c-second-002",
    ]);
    again.close();
    s.socket.close();
  });

  it("never starts a message twice when it arrives twice at once, and names the id a refusal is for", async () => {
    const s = await scenario([{ text: ["Working"], hang: true }]);
    const content = `Twice ${marker(s.key)}`;
    s.socket.send({ type: "chat", content, client_id: "c-twice-0001" });
    s.socket.send({ type: "chat", content, client_id: "c-twice-0001" });
    const answer = await s.socket.next("chat_duplicate");
    expect(answer.client_id).toBe("c-twice-0001");
    // Another message while the turn runs: refused, and the refusal says which message it was.
    s.socket.send({ type: "chat", content: "Meanwhile", client_id: "c-other-0001" });
    expect(await s.socket.next("error")).toMatchObject({ code: "busy", client_id: "c-other-0001" });
    expect(users(await history(s)).map((m) => m.role === "user" && m.client_id)).toEqual(["c-twice-0001"]);
    s.socket.send({ type: "agent_control", action: "stop" });
    await s.socket.next("response_complete");
    s.socket.close();
  });

  it("refuses a client_id that is not one", async () => {
    const s = await scenario([]);
    for (const client_id of ["short", "x".repeat(65), "has space in it", 42]) {
      const from = s.socket.frames.length;
      s.socket.send({ type: "chat", content: "Hi", client_id });
      const error = await s.socket.next("error", () => true, { from });
      expect(error).toMatchObject({ code: "invalid_frame" });
      expect(error.message).toMatch(/^client_id: /);
    }
    expect(await history(s)).toEqual([]);
    s.socket.close();
  });
});
