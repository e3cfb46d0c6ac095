// A conversation's object keeps what it read of its user while a socket is open (user-cache.ts), and
// every write to what that copy holds reaches it before the write is answered (user-changes.ts): the
// next turn, on a warm object, starts from what was just saved.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UserCache } from "../../durable-objects/conversation/user-cache";
import { api, connect, createConversation, eventually, type Session, signup, stubOf } from "./helpers";
import { chat, scenario } from "./turn-helpers";

/** Whether the conversation's object holds its copy of the user's settings now. */
const holds = (id: string) =>
  runInDurableObject(
    stubOf(id),
    async (instance) => (instance as unknown as { sockets: { user: UserCache } }).sockets.user.holding,
  );

/** How many sockets of the conversation are registered in its owner's shard (live_conversations). */
async function registered(session: Session, conversationId: string): Promise<number> {
  const row = await session.db
    .prepare("SELECT count(*) AS n FROM live_conversations WHERE conversation_id = ?")
    .bind(conversationId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A non-core subscriber (one a user may turn off). */
async function optionalSubscriber(session: Session): Promise<string> {
  const res = await api("/api/subscribers", { headers: session.headers });
  const subscribers = (await res.json()) as { id: string; core: boolean }[];
  const found = subscribers.find((s) => !s.core);
  if (!found) throw new Error("no optional subscriber");
  return found.id;
}

describe("the object's copy of its user's settings", () => {
  it("applies settings saved between two turns to the second, on the same open socket", async () => {
    const toolStep = { tool_calls: [{ name: "vault_list", arguments: {} }] };
    const s = await scenario([toolStep, { text: "listed" }, toolStep, { text: "never reached" }]);
    const first = await chat(s, "first");
    expect(first.done).toMatchObject({ termination_reason: "completed", steps: 2 });
    expect(await holds(s.conversationId)).toBe(true);

    const saved = await api("/api/settings/agent", {
      method: "PUT",
      json: { maxIterations: 1 },
      headers: s.session.headers,
    });
    expect(saved.status).toBe(200);
    const second = await chat(s, "second");
    expect(second.done).toMatchObject({ termination_reason: "max_iterations", steps: 1 });
    s.socket.close();
  });

  it("is dropped by every write to what it holds, before the write answers, and kept by reads and refusals", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const socket = await connect(session, id);
    await eventually(() => holds(id), Boolean, "copy read as the socket opened");
    expect(await registered(session, id)).toBe(1);
    const subscriber = await optionalSubscriber(session);
    const writes: [string, RequestInit & { json?: unknown }][] = [
      ["/api/settings/agent", { method: "PUT", json: { tokenBudget: 40_000 } }],
      [`/api/subscribers/${subscriber}`, { method: "PUT", json: { enabled: false } }],
      ["/api/tool-approvals", { method: "PUT", json: { tool: "vault_write", mode: "ask" } }],
      [`/api/conversations/${id}`, { method: "PATCH", json: { title: "Renamed" } }],
      ["/api/mcp-servers", { method: "POST", json: { name: "docs", url: "https://mcp.example.com/mcp" } }],
    ];
    for (const [path, init] of writes) {
      // A frame refills the copy (resume is answered after the credential check).
      socket.send({ type: "resume", after_seq: 0 });
      await eventually(() => holds(id), Boolean, `copy refilled before ${path}`);
      const res = await api(path, { ...init, headers: session.headers });
      expect(res.status, path).toBeLessThan(300);
      expect(await holds(id), path).toBe(false);
    }
    socket.send({ type: "resume", after_seq: 0 });
    await eventually(() => holds(id), Boolean, "copy refilled");
    expect((await api("/api/settings/agent", { headers: session.headers })).status).toBe(200);
    const refused = await api("/api/settings/agent", {
      method: "PUT",
      json: { maxIterations: 0 },
      headers: session.headers,
    });
    expect(refused.status).toBe(400);
    expect(await holds(id)).toBe(true);

    // The last socket closing drops the copy and its registration.
    socket.close();
    await eventually(
      () => registered(session, id),
      (n) => n === 0,
      "registration removed",
    );
    expect(await holds(id)).toBe(false);
  });

  it("reaches the user's other open conversations, and not another user's", async () => {
    const session = await signup();
    const other = await signup();
    const [a, b, c] = [
      await createConversation(session),
      await createConversation(session),
      await createConversation(other),
    ];
    const sockets = [await connect(session, a.id), await connect(session, b.id), await connect(other, c.id)];
    for (const { id } of [a, b, c]) await eventually(() => holds(id), Boolean, "copies read");
    const res = await api("/api/settings/agent", {
      method: "PUT",
      json: { maxIterations: 7 },
      headers: session.headers,
    });
    expect(res.status).toBe(200);
    expect([await holds(a.id), await holds(b.id), await holds(c.id)]).toEqual([false, false, true]);
    for (const socket of sockets) socket.close();
  });
});
