// The conversation's log lives in its own object's SQLite, and D1 keeps only the index (docs/architecture.md
// "Data"): messages are written locally and served by the object, the index follows through an
// outbox that survives a crash and retries a failed flush, a 10,000-message conversation wakes without
// reading its log, and a conversation whose messages are still in D1 moves into its object once.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ensureLocalTables, insertMessage, writeState } from "../../durable-objects/conversation/log/local-tables";
import type { Conversation, Message } from "../../protocol";
import { api, connect, createConversation, eventually, type Session, signup, stubOf } from "./helpers";
import { chat, history, scenario } from "./turn-helpers";

async function getJson<T>(session: Session, path: string): Promise<T> {
  const res = await api(path, { headers: session.headers });
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return res.json() as Promise<T>;
}

/** The conversation's messages still in D1: in its owner's shard, where the index and a legacy log are. */
const d1Rows = async (db: D1Database, conversationId: string) =>
  (
    await db
      .prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ?")
      .bind(conversationId)
      .first<{ n: number }>()
  )?.n;

const localRows = (conversationId: string) =>
  runInDurableObject(
    stubOf(conversationId),
    async (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM messages").one().n,
  );

const conversationRow = (s: Session, id: string) =>
  getJson<Conversation[]>(s, "/api/conversations").then((list) => list.find((c) => c.id === id));

describe("the log in the conversation's object", () => {
  it("writes messages into the object's SQLite, none into D1, and serves pages from there", async () => {
    const s = await scenario([{ text: "Hello from the model." }]);
    await chat(s, "Hello object");
    const log = await history(s);
    expect(log.map((m) => m.seq)).toEqual(log.map((_, i) => i + 1));
    expect(await localRows(s.conversationId)).toBe(log.length);
    expect(await d1Rows(s.session.db, s.conversationId)).toBe(0);
    const page = await getJson<{ messages: Message[] }>(
      s.session,
      `/api/conversations/${s.conversationId}/messages?after=1&limit=1`,
    );
    expect(page.messages).toEqual([log[1]]);
  });

  it("erases the object's log when the conversation is deleted", async () => {
    const s = await scenario([{ text: "Soon gone." }]);
    await chat(s, "Delete me afterwards");
    expect(await localRows(s.conversationId)).toBeGreaterThan(0);
    const res = await api(`/api/conversations/${s.conversationId}`, { method: "DELETE", headers: s.session.headers });
    expect(res.status).toBe(204);
    const tables = await runInDurableObject(stubOf(s.conversationId), async (_i, state) =>
      state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
        .toArray()
        .map((t) => t.name),
    );
    expect(tables).toEqual([]);
  });

  it("updates the index (title, preview, updated_at) from the outbox, in the background", async () => {
    const s = await scenario([{ text: "Quokkas live on Rottnest Island." }]);
    const before = await conversationRow(s.session, s.conversationId);
    await chat(s, "Where do quokkas live?");
    const row = await eventually(
      () => conversationRow(s.session, s.conversationId),
      (c) => c?.preview === "Quokkas live on Rottnest Island.",
      "index after the turn",
    );
    // The first message's title, unless the model's (the fake's default) has replaced it already: it is
    // asked for once the turn has ended (conversation-titles.test.ts).
    expect(row?.title).toMatch(/^(Where do quokkas live\?|Fake model title$)/);
    expect((row?.updated_at ?? "") > (before?.updated_at ?? "")).toBe(true);
  });

  it("wakes a 10,000-message conversation without reading its log", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const stub = stubOf(id);
    // A long history, written as the object writes it (and already indexed, so no flush reads it).
    await runInDurableObject(stub, async (_i, state) => {
      const sql = state.storage.sql;
      ensureLocalTables(sql);
      const at = new Date().toISOString();
      for (let seq = 1; seq <= 10_000; seq++) {
        const role = seq % 2 ? "user" : "agent";
        const payload = role === "user" ? { content: `question ${seq}` } : { content: `answer ${seq}`, step: 1 };
        insertMessage(sql, { seq, id: crypto.randomUUID(), role, created_at: at, payload: JSON.stringify(payload) });
      }
      writeState(sql, "legacy_imported", at);
      writeState(sql, "index_watermark", "10000");
    });
    const socket = await connect(session, id);
    expect(socket.frames[0]).toMatchObject({ type: "hello", last_seq: 10_000 });
    const page = await getJson<{ messages: Message[] }>(session, `/api/conversations/${id}/messages?after=9990`);
    expect(page.messages.map((m) => m.seq)).toEqual([9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999, 10_000]);
    const from = socket.frames.length;
    socket.send({ type: "resume", after_seq: 9997 });
    await socket.next("message", (f) => f.message.seq === 10_000, { from });
    expect(socket.messages().map((m) => m.seq)).toEqual([9998, 9999, 10_000]);
    const rowsRead = await runInDurableObject(stub, async (instance) => {
      const log = (instance as unknown as { opened: { log: { rowsRead: number } } }).opened.log;
      return log.rowsRead;
    });
    expect(rowsRead).toBeLessThan(100);
    socket.close();
  });
});

describe("the index outbox", () => {
  it("indexes what a dead object wrote but never flushed, when the object opens again", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    await connect(session, id).then((s) => s.close());
    // The object died after writing this message and before its flush: the index does not have it.
    await runInDurableObject(stubOf(id), async (instance, state) => {
      insertMessage(state.storage.sql, {
        seq: 1,
        id: crypto.randomUUID(),
        role: "user",
        created_at: new Date().toISOString(),
        payload: JSON.stringify({ content: "Remember the wombat burrow" }),
      });
      // As a fresh instance would find it.
      Object.assign(instance as object, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });
    const socket = await connect(session, id);
    expect(socket.frames[0]).toMatchObject({ type: "hello", last_seq: 1 });
    const results = await eventually(
      () => getJson<{ results: { conversation_id: string }[] }>(session, "/api/search?q=wombat"),
      (r) => r.results.length > 0,
      "search after reopening",
    );
    expect(results.results.map((r) => r.conversation_id)).toEqual([id]);
    socket.close();
  });

  it("retries a failed flush from an alarm until it lands", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    await connect(session, id).then((s) => s.close());
    const stub = stubOf(id);
    // D1 refuses the object's next batch, as an unreachable primary would.
    await runInDurableObject(stub, async (instance) => {
      const outbox = (instance as unknown as { opened: { outbox: { d1: D1Database } } }).opened.outbox;
      const real = outbox.d1;
      outbox.d1 = new Proxy(real, {
        get: (target, key) =>
          key === "batch"
            ? () => {
                outbox.d1 = real;
                return Promise.reject(new Error("D1 unreachable"));
              }
            : Reflect.get(target, key).bind(target),
      });
    });
    const res = await api(`/api/conversations/${id}/notify`, {
      method: "POST",
      json: { message: "Platypus sighting reported" },
      headers: session.headers,
    });
    expect(res.status).toBe(202);
    const alarm = await eventually(
      () => runInDurableObject(stub, async (_i, state) => state.storage.getAlarm()),
      (at) => at !== null,
      "retry alarm",
    );
    expect(alarm).toBeGreaterThan(Date.now() - 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const landed = await runInDurableObject(
      stub,
      async (instance) => (instance as unknown as { opened: { outbox: { pending: boolean } } }).opened.outbox.pending,
    );
    expect(landed).toBe(false);
  });
});

describe("conversations from before the move", () => {
  it("moves a conversation's D1 messages into its object on first open, once, then deletes them", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const at = new Date().toISOString();
    const legacy = [
      { seq: 1, role: "user", payload: { content: "What do echidnas eat?" } },
      { seq: 2, role: "agent", payload: { content: "Mostly ants and termites.", step: 1, phase: "final" } },
    ];
    await session.db.batch(
      legacy.map((m) =>
        session.db
          .prepare(
            "INSERT INTO messages (conversation_id, seq, id, role, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)",
          )
          .bind(id, m.seq, crypto.randomUUID(), m.role, at, JSON.stringify(m.payload)),
      ),
    );
    const page = await getJson<{ messages: Message[] }>(session, `/api/conversations/${id}/messages`);
    expect(page.messages.map((m) => [m.seq, m.role])).toEqual([
      [1, "user"],
      [2, "agent"],
    ]);
    expect(page.messages[1]).toMatchObject({ content: "Mostly ants and termites.", phase: "final" });
    await eventually(
      () => d1Rows(session.db, id),
      (n) => n === 0,
      "legacy rows deleted from D1",
    );
    // Imported text is searchable, and the log goes on from the imported seq.
    await eventually(
      () => getJson<{ results: unknown[] }>(session, "/api/search?q=termites"),
      (r) => r.results.length === 1,
      "imported text indexed",
    );
    const s = await scenario([{ text: "Also beetle larvae." }]);
    Object.assign(s, { session, conversationId: id, socket: await connect(session, id) });
    await chat(s, "Anything else?");
    const log = await history(s);
    expect(log.map((m) => m.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((m) => m.role === "user")).toHaveLength(2);
    // A stray legacy row written later is not imported again: the move happened once.
    await session.db
      .prepare(
        "INSERT INTO messages (conversation_id, seq, id, role, created_at, payload) VALUES (?, 99, ?, 'user', ?, ?)",
      )
      .bind(id, crypto.randomUUID(), at, JSON.stringify({ content: "stray" }))
      .run();
    await runInDurableObject(stubOf(id), async (instance) => {
      Object.assign(instance as object, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });
    const again = await getJson<{ messages: Message[] }>(session, `/api/conversations/${id}/messages`);
    expect(again.messages.map((m) => m.seq)).toEqual(log.map((m) => m.seq));
  });
});
