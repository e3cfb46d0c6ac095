import { describe, expect, it } from "vitest";
import { api, connect, createConversation, eventually, signup } from "./helpers";

describe("conversations", () => {
  it("creates, lists newest first, gets, renames and deletes own conversations", async () => {
    const session = await signup();
    const first = await createConversation(session, "first");
    const second = await createConversation(session);
    expect(second.title).toBe("New conversation");
    const list = (await (await api("/api/conversations", { headers: session.headers })).json()) as { id: string }[];
    expect(list.map((c) => c.id)).toEqual([second.id, first.id]);

    const got = await api(`/api/conversations/${first.id}`, { headers: session.headers });
    expect(await got.json()).toMatchObject({ id: first.id, title: "first", running: false });

    const renamed = await api(`/api/conversations/${first.id}`, {
      method: "PATCH",
      json: { title: "renamed" },
      headers: session.headers,
    });
    expect(await renamed.json()).toMatchObject({ title: "renamed" });

    expect((await api(`/api/conversations/${first.id}`, { method: "DELETE", headers: session.headers })).status).toBe(
      204,
    );
    expect((await api(`/api/conversations/${first.id}`, { headers: session.headers })).status).toBe(404);
  });

  it("names a new conversation (its first message, then the model's title), and keeps a title the user chose", async () => {
    const session = await signup();
    const untitled = await createConversation(session);
    const named = await createConversation(session, "My title");
    for (const id of [untitled.id, named.id]) {
      const socket = await connect(session, id);
      socket.send({ type: "chat", content: "Plan the launch of the beta in May, with a budget\nand more lines" });
      await socket.next("response_complete");
      socket.close();
    }
    const get = async (id: string) =>
      ((await (await api(`/api/conversations/${id}`, { headers: session.headers })).json()) as { title: string }).title;
    // The index learns the first message's title from the object's outbox, and then the model writes
    // one after the first answer (the fake's default title; conversation-titles.test.ts has the rules).
    await eventually(
      () => get(untitled.id),
      (title) => title === "Fake model title",
      "title",
    );
    expect(await get(named.id)).toBe("My title");
  });

  it("answers 401 without identity", async () => {
    const res = await api("/api/conversations");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("answers 404 for another user's conversation on every route, the socket upgrade included", async () => {
    const alice = await signup();
    const bob = await signup();
    const { id } = await createConversation(alice, "private");
    const attempts: [string, RequestInit & { json?: unknown }][] = [
      [`/api/conversations/${id}`, { headers: bob.headers }],
      [`/api/conversations/${id}`, { method: "PATCH", json: { title: "mine now" }, headers: bob.headers }],
      [`/api/conversations/${id}/messages`, { headers: bob.headers }],
      [`/api/conversations/${id}/notify`, { method: "POST", json: { message: "hi" }, headers: bob.headers }],
      [`/api/conversations/${id}/ws`, { headers: { ...bob.headers, Upgrade: "websocket" } }],
      [`/api/conversations/${id}`, { method: "DELETE", headers: bob.headers }],
    ];
    for (const [path, init] of attempts) {
      const res = await api(path, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
    // Nothing changed for the owner.
    const own = await api(`/api/conversations/${id}`, { headers: alice.headers });
    expect(await own.json()).toMatchObject({ title: "private" });
    const list = (await (await api("/api/conversations", { headers: bob.headers })).json()) as unknown[];
    expect(list).toEqual([]);
  });

  it("refuses a socket upgrade without identity (401) and from a foreign origin (403)", async () => {
    const alice = await signup();
    const { id } = await createConversation(alice);
    expect((await api(`/api/conversations/${id}/ws`, { headers: { Upgrade: "websocket" } })).status).toBe(401);
    const foreign = await api(`/api/conversations/${id}/ws`, {
      headers: { Cookie: alice.cookie, Origin: "https://evil.example", Upgrade: "websocket" },
    });
    expect(foreign.status).toBe(403);
    const socket = await connect(alice, id);
    socket.close();
  });

  it("validates the messages query", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const bad = await api(`/api/conversations/${id}/messages?limit=5000`, { headers: session.headers });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { fields: { limit: expect.any(String) } } });
  });
});
