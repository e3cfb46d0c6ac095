import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, signup, uniqueName } from "./helpers";

const llmUrl = inject("llmUrl");

describe("hibernation", () => {
  it("keeps sockets and seq across an eviction of the object", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("evict");
    await scriptModel(llmUrl, key, [{ text: "before" }, { text: "after" }]);
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `one ${marker(key)}` });
    await socket.next("response_complete");

    await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(id)));

    // The socket survived hibernation: ping is answered, and the next turn continues the same seq.
    let from = socket.frames.length;
    socket.send({ type: "ping" });
    await socket.next("pong", () => true, { from });
    from = socket.frames.length;
    socket.send({ type: "chat", content: `two ${marker(key)}` });
    await socket.next("response_complete", () => true, { from });
    const res = await api(`/api/conversations/${id}/messages`, { headers: session.headers });
    const { messages } = (await res.json()) as { messages: { seq: number; role: string }[] };
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
    expect(messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "agent", "user", "agent"]);
    expect(socket.messages()).toEqual(messages);
    socket.close();
  });
});
