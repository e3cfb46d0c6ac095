// Share links (issue 27, docs/protocol.md "Share links"): made and revoked by the owner only, read without
// an account as a snapshot (later messages absent), filtered per the owner's choices, revealing nothing of
// the owner (no username or ids, no MCP server address), rate limited, and forked into a caller's own
// linear copy. Real D1 and conversation objects; the turns run against the fake model and a real MCP server.
import { describe, expect, inject, it } from "vitest";
import { shardOfId } from "../../core/shard-rules";
import type { Message, Share, SharedConversation } from "../../protocol";
import { api, createConversation, type Session, signup } from "./helpers";
import { chat, history, type Scenario, scenario } from "./turn-helpers";

const mcpUrl = inject("mcpUrl");

const json = async <T>(res: Response, status: number): Promise<T> => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return res.json() as Promise<T>;
};

const share = async (session: Session, conversationId: string, body: Record<string, unknown> = {}) =>
  api(`/api/conversations/${conversationId}/shares`, { method: "POST", json: body, headers: session.headers });

const makeShare = async (session: Session, conversationId: string, body: Record<string, unknown> = {}) =>
  json<Share>(await share(session, conversationId, body), 201);

/** The public read, as a browser without any cookie (from its own address, for the read limit). */
const readShared = (id: string, address = "198.51.100.1") =>
  api(`/api/shared/${id}`, { headers: { "CF-Connecting-IP": address } });

const SECRET = "sk-share-test-0123456789";
const roles = (messages: Message[]) => messages.map((m) => m.role);

/** A conversation with a user message, an MCP tool call and result, an answer and a System message. */
async function sharedWorld(): Promise<Scenario> {
  const host = new URL(mcpUrl).host;
  const s = await scenario([
    { tool_calls: [{ name: "local__echo", arguments: { text: `look at ${mcpUrl}` } }] },
    { text: `The server at ${host} echoed it.` },
    { text: "A later answer." },
    { text: "A regenerated answer." },
  ]);
  const added = await api("/api/mcp-servers", {
    method: "POST",
    json: { name: "local", url: mcpUrl },
    headers: s.session.headers,
  });
  expect(added.status).toBe(201);
  // Its tools run without asking: this test is about the page, not approvals.
  const { id: serverId } = (await added.json()) as { id: string };
  const allow = { tool: `mcp:${serverId}:*`, mode: "allow" };
  expect((await api("/api/tool-approvals", { method: "PUT", json: allow, headers: s.session.headers })).status).toBe(
    200,
  );
  // A second server, off, whose secret the user pasted into the chat: the page hides it too.
  const sealed = await api("/api/mcp-servers", {
    method: "POST",
    json: {
      name: "paid",
      url: "https://tools.example.com/mcp",
      enabled: false,
      auth: { type: "bearer", token: SECRET },
    },
    headers: s.session.headers,
  });
  expect(sealed.status).toBe(201);
  await chat(s, `Echo something (my key is ${SECRET})`);
  const notified = await api(`/api/conversations/${s.conversationId}/notify`, {
    method: "POST",
    json: { message: `Deploy finished (${new URL(mcpUrl).hostname})` },
    headers: s.session.headers,
  });
  expect(notified.status).toBe(202);
  return s;
}

describe("share links", () => {
  it("creates, lists and revokes a link; a revoked link and a deleted conversation's answer 404 at once", async () => {
    const alice = await signup();
    const conversation = await createConversation(alice, "Trip plans");
    const created = await makeShare(alice, conversation.id);
    expect(created).toMatchObject({
      url: `/s/${created.id}`,
      conversation_id: conversation.id,
      title: "Trip plans",
      leaf_seq: 0,
      include_system: false,
      include_tools: false,
    });
    // The shard that keeps the link, then 144 random bits (d1/shards.ts).
    expect(created.id).toMatch(/^\d+\.[A-Za-z0-9_-]{24}$/);
    expect(shardOfId(created.id)).toBe(alice.shard);
    const second = await makeShare(alice, conversation.id, { include_tools: true });
    expect(second.id).not.toBe(created.id);

    const listed = await json<{ shares: Share[] }>(await api("/api/shares", { headers: alice.headers }), 200);
    expect(listed.shares.map((s) => s.id)).toEqual([second.id, created.id]);

    const read = await readShared(created.id);
    expect(read.status).toBe(200);
    expect(read.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(read.headers.get("Cache-Control")).toBe("no-store");
    expect(read.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(await read.json()).toEqual({
      share: {
        id: created.id,
        title: "Trip plans",
        created_at: created.created_at,
        include_system: false,
        include_tools: false,
        include_files: false,
      },
      messages: [],
    });

    expect((await api(`/api/shares/${created.id}`, { method: "DELETE", headers: alice.headers })).status).toBe(204);
    const gone = await readShared(created.id);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(await gone.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await api(`/api/shares/${created.id}`, { method: "DELETE", headers: alice.headers })).status).toBe(404);
    const left = await json<{ shares: Share[] }>(await api("/api/shares", { headers: alice.headers }), 200);
    expect(left.shares.map((s) => s.id)).toEqual([second.id]);

    // Deleting the conversation ends its links too.
    expect(
      (await api(`/api/conversations/${conversation.id}`, { method: "DELETE", headers: alice.headers })).status,
    ).toBe(204);
    expect((await readShared(second.id)).status).toBe(404);
    expect((await readShared("AAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
  });

  it("lets no other user share my conversation, revoke my link or see my links", async () => {
    const alice = await signup();
    const bob = await signup();
    const { id } = await createConversation(alice, "private");
    const refused = await share(bob, id, { include_tools: true });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { code: "not_found" } });

    const mine = await makeShare(alice, id);
    expect((await api(`/api/shares/${mine.id}`, { method: "DELETE", headers: bob.headers })).status).toBe(404);
    expect((await readShared(mine.id)).status).toBe(200);
    const bobs = await json<{ shares: Share[] }>(await api("/api/shares", { headers: bob.headers }), 200);
    expect(bobs.shares).toEqual([]);
    // Without an account nothing but the public read answers.
    expect((await api("/api/shares")).status).toBe(401);
    expect((await api(`/api/conversations/${id}/shares`, { method: "POST", json: {} })).status).toBe(401);
    expect((await share(alice, id, { include_secrets: true })).status).toBe(400);
  });

  it("shows the snapshot without an account, filtered as chosen, and nothing of the owner or their MCP server", async () => {
    const s = await sharedWorld();
    const all = await history(s);
    expect(roles(all)).toEqual(["user", "tool", "agent", "system"]);
    const plain = await makeShare(s.session, s.conversationId);
    const full = await makeShare(s.session, s.conversationId, { include_system: true, include_tools: true });
    expect(full.leaf_seq).toBe(all.at(-1)?.seq);

    // A later turn, and then another branch made current, are past the snapshot: the links still show
    // the path as it was when they were made.
    await chat(s, "And now?");
    expect((await history(s)).length).toBeGreaterThan(all.length);
    const from = s.socket.frames.length;
    s.socket.send({ type: "regenerate", seq: all[0]?.seq });
    await s.socket.next("response_complete", () => true, { from, timeoutMs: 20_000 });
    const now = await makeShare(s.session, s.conversationId, { include_system: true, include_tools: true });
    const nowView = await json<SharedConversation>(await readShared(now.id), 200);
    expect(nowView.messages.map((m) => (m.role === "agent" ? m.content : m.role))).toEqual([
      "user",
      "A regenerated answer.",
    ]);

    // A bad or stale session does not stand in the way of the public read.
    const withBadToken = await api(`/api/shared/${plain.id}`, { headers: { Authorization: "Bearer nonsense" } });
    expect(withBadToken.status).toBe(200);

    const plainView = await json<SharedConversation>(await readShared(plain.id), 200);
    expect(roles(plainView.messages)).toEqual(["user", "agent"]);
    const fullView = await json<SharedConversation>(await readShared(full.id), 200);
    expect(roles(fullView.messages)).toEqual(["user", "tool", "agent", "system"]);
    expect(fullView.messages.map((m) => m.seq)).toEqual(all.map((m) => m.seq));
    expect(fullView.messages.some((m) => JSON.stringify(m).includes("A later answer"))).toBe(false);

    const tool = fullView.messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ tool: "local__echo", args: { text: "look at local" }, result: "echo: look at local" });
    expect(fullView.messages.find((m) => m.role === "agent" && m.phase === "final")).toMatchObject({
      content: "The server at local echoed it.",
    });

    for (const view of [plainView, fullView]) {
      const text = JSON.stringify(view);
      const url = new URL(mcpUrl);
      expect(text).toContain("[hidden]");
      for (const secret of [
        mcpUrl,
        url.host,
        url.hostname,
        SECRET,
        "tools.example.com",
        s.session.user.username,
        s.session.user.id,
      ]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toContain(s.conversationId);
    }
  });

  it("limits link making to 30 an hour per user, also for a burst of parallel requests", async () => {
    const alice = await signup();
    const { id } = await createConversation(alice);
    const burst = await Promise.all(Array.from({ length: 34 }, () => share(alice, id)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = burst.find((r) => r.status === 429);
    const retryAfter = Number(refused?.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused?.json()).toMatchObject({ error: { code: "rate_limited" } });
    // The 35th, sent alone, is refused too; another user is not affected.
    expect((await share(alice, id)).status).toBe(429);
    const bob = await signup();
    expect((await share(bob, (await createConversation(bob)).id)).status).toBe(201);
  });

  it("limits shared-page reads to 120 a minute per client address", async () => {
    const alice = await signup();
    const link = await makeShare(alice, (await createConversation(alice)).id);
    const burst = await Promise.all(Array.from({ length: 125 }, () => readShared(link.id, "203.0.113.9")));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(120);
    const refused = burst.find((r) => r.status === 429);
    expect(Number(refused?.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    // Another address still reads it.
    expect((await readShared(link.id, "203.0.113.10")).status).toBe(200);
  });

  it("forks what a link shows into the caller's own new conversation, as a linear copy; a revoked link's fork is 404", async () => {
    const s = await sharedWorld();
    const link = await makeShare(s.session, s.conversationId, { include_tools: true });
    const shown = await json<SharedConversation>(await readShared(link.id), 200);
    const bob = await signup();

    const fork = (session: Pick<Session, "headers">) =>
      api(`/api/shared/${link.id}/fork`, { method: "POST", headers: session.headers });
    expect((await fork({ headers: {} })).status).toBe(401);
    expect((await fork({ headers: { ...bob.headers, Origin: "https://evil.example" } })).status).toBe(403);

    const copy = await json<{ id: string; title: string }>(await fork(bob), 201);
    expect(copy.id).not.toBe(s.conversationId);
    const listed = await json<{ id: string }[]>(await api("/api/conversations", { headers: bob.headers }), 200);
    expect(listed.map((c) => c.id)).toContain(copy.id);
    // Alice cannot reach Bob's copy, nor Bob Alice's original.
    expect((await api(`/api/conversations/${copy.id}`, { headers: s.session.headers })).status).toBe(404);
    expect((await api(`/api/conversations/${s.conversationId}`, { headers: bob.headers })).status).toBe(404);

    const copied = await json<{ messages: Message[] }>(
      await api(`/api/conversations/${copy.id}/messages?limit=1000`, { headers: bob.headers }),
      200,
    );
    const strip = (m: Message) => {
      const {
        seq: _seq,
        id: _id,
        created_at: _at,
        parent_seq: _parent,
        ...rest
      } = m as Message & { parent_seq?: number };
      return rest;
    };
    expect(copied.messages.map(strip)).toEqual(shown.messages.map(strip));
    expect(roles(copied.messages)).toEqual(["user", "tool", "agent"]);
    // One linear path: each message follows the one before it.
    expect(copied.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(copied.messages.map((m) => m.parent_seq)).toEqual([0, 1, 2]);

    expect((await api(`/api/shares/${link.id}`, { method: "DELETE", headers: s.session.headers })).status).toBe(204);
    const afterRevoke = await fork(bob);
    expect(afterRevoke.status).toBe(404);
    expect(await afterRevoke.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
