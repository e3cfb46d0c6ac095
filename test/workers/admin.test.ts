// The admin surface (docs/protocol.md "Administration"): nothing of it answers anyone but an admin, and
// disabling a user ends every session, token and socket of theirs at once and stops their running turn
// before its next model call; each action is in the audit log.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import {
  api,
  connect,
  createConversation,
  eventually,
  ORIGIN,
  type Session,
  signup,
  stubOf,
  uniqueName,
} from "./helpers";
import { llmUrl } from "./turn-helpers";

/** An account made an admin as a promotion makes one: its role in its shard, and among the directory's active admins. */
async function admin(): Promise<Session> {
  const session = await signup();
  await session.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(session.user.id).run();
  await env.DIRECTORY.prepare("INSERT INTO directory_admins (user_id, shard) VALUES (?, ?)")
    .bind(session.user.id, session.shard)
    .run();
  return session;
}

/** Whether the directory counts `userId` among the active admins (the "never no admin" rule's table). */
const activeAdmin = async (userId: string) =>
  !!(await env.DIRECTORY.prepare("SELECT 1 FROM directory_admins WHERE user_id = ?").bind(userId).first());

const ADMIN_ROUTES: [string, string, unknown?][] = [
  ["GET", "/api/admin/users"],
  ["GET", "/api/admin/usage"],
  ["GET", "/api/admin/audit"],
  ["GET", "/api/admin/invites"],
  ["POST", "/api/admin/invites", {}],
  ["DELETE", "/api/admin/invites/x"],
  ["POST", "/api/admin/users/x/disable"],
  ["PUT", "/api/admin/users/x/role", { role: "admin" }],
  ["PUT", "/api/admin/users/x/quota", {}],
];

describe("the admin surface", () => {
  it("answers 404 to anyone but an admin, signed in, by token or not at all", async () => {
    const user = await signup();
    const token = (await (
      await api("/api/tokens", { method: "POST", json: { name: "t" }, headers: user.headers })
    ).json()) as { token: string };
    const callers = [user.headers, { Authorization: `Bearer ${token.token}` }, { Origin: ORIGIN }];
    for (const headers of callers)
      for (const [method, path, json] of ADMIN_ROUTES) {
        const res = await api(path, { method, headers, ...(json ? { json } : {}) });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
      }
    expect(await (await api("/api/me", { headers: user.headers })).json()).toEqual({ user: user.user });
    const boss = await admin();
    expect((await api("/api/admin/users", { headers: boss.headers })).status).toBe(200);
    expect(await (await api("/api/me", { headers: boss.headers })).json()).toMatchObject({ user: { admin: true } });
  });

  it("finds users by part of their name, with their status and this month's use", async () => {
    const boss = await admin();
    const name = uniqueName("findme");
    const user = await signup(name);
    await api("/api/me", { headers: user.headers });
    type Listed = {
      users: { id: string; status: string; created_at: string; last_active_at: string | null }[];
      total: number;
    };
    // The request is stamped (to the hour) after its answer.
    const body = await eventually(
      async () => (await (await api(`/api/admin/users?q=${name}`, { headers: boss.headers })).json()) as Listed,
      (b) => b.users[0]?.last_active_at !== null,
      "last activity",
    );
    expect(body.total).toBe(1);
    // Written at most once an hour, never before the sign-up.
    expect(Date.parse(body.users[0]?.last_active_at ?? "")).toBeGreaterThanOrEqual(
      Date.parse(body.users[0]?.created_at ?? ""),
    );
    expect(body.users[0]).toMatchObject({ id: user.user.id, status: "active", role: "user", month: { tokens: 0 } });
    // A quota set for the user shows as theirs, and is audited.
    const set = await api(`/api/admin/users/${user.user.id}/quota`, {
      method: "PUT",
      json: { daily_tokens: 1000, monthly_cost: null },
      headers: boss.headers,
    });
    expect(await set.json()).toMatchObject({ quota: { daily_tokens: 1000 } });
    const again = (await (await api(`/api/admin/users?q=${name}`, { headers: boss.headers })).json()) as typeof body;
    expect(again.users[0]).toMatchObject({ quota: { daily_tokens: 1000 } });
    const bad = await api(`/api/admin/users/${user.user.id}/quota`, {
      method: "PUT",
      json: { daily_tokens: -1 },
      headers: boss.headers,
    });
    expect(bad.status).toBe(400);
  });

  it("disabling a user closes their socket, stops their running turn before its next model call, and signs them out everywhere", async () => {
    const boss = await admin();
    const password = "correct horse battery";
    const user = await signup(uniqueName("abuser"), password);
    const token = (await (
      await api("/api/tokens", { method: "POST", json: { name: "t" }, headers: user.headers })
    ).json()) as { token: string };
    const { id } = await createConversation(user);
    const key = uniqueName("disabled");
    // A tool step, then a slow second call that must never be made.
    await scriptModel(llmUrl, key, [
      { tool_calls: [{ name: "vault_search", arguments: { query: "x" } }], delay_ms: 300 },
      { text: "must never be asked" },
    ]);
    const socket = await connect(user, id);
    socket.send({ type: "chat", content: `work ${marker(key)}` });
    await socket.next("agent_update", (f) => f.update_type === "agent_turn_start");
    const res = await api(`/api/admin/users/${user.user.id}/disable`, { method: "POST", headers: boss.headers });
    expect(res.status).toBe(200);
    // Before the answer came back, the socket was told and closed.
    expect(socket.frames.some((f) => f.type === "error" && f.code === "unauthorized")).toBe(true);
    await new Promise((r) => setTimeout(r, 600));
    expect(socket.closeCode).toBe(4401);
    expect(await modelRequests(llmUrl, key)).toHaveLength(1);
    // Every credential is gone, and signing in again is refused in words.
    expect((await api("/api/me", { headers: user.headers })).status).toBe(401);
    expect((await api("/api/me", { headers: { Authorization: `Bearer ${token.token}` } })).status).toBe(401);
    const login = await api("/api/auth/login", {
      method: "POST",
      json: { username: user.user.username, password },
      headers: { Origin: ORIGIN },
    });
    expect(login.status).toBe(403);
    expect(await login.json()).toMatchObject({ error: { code: "account_disabled" } });
    // The turn ended as stopped, its log whole.
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
    const log = await stub.messages(
      { conversationId: id, userId: user.user.id },
      { after: 0, limit: 100, view: "path" },
    );
    expect(JSON.stringify(log)).toContain("user_cancelled");
    // Enabled again: the password works, and the audit log holds both actions in order.
    expect(
      (await api(`/api/admin/users/${user.user.id}/enable`, { method: "POST", headers: boss.headers })).status,
    ).toBe(200);
    const back = await api("/api/auth/login", {
      method: "POST",
      json: { username: user.user.username, password },
      headers: { Origin: ORIGIN },
    });
    expect(back.status).toBe(200);
    const audit = (await (await api("/api/admin/audit?limit=200", { headers: boss.headers })).json()) as {
      entries: { actor: string; action: string; target: string | null }[];
    };
    const mine = audit.entries.filter((e) => e.target === user.user.username);
    expect(mine.map((e) => e.action)).toEqual(["enable", "disable"]);
    expect(mine[0]?.actor).toBe(boss.user.username);
  });

  it("a disabled user's schedules wait: a run that comes due starts nothing, until the account is enabled", async () => {
    const boss = await admin();
    const user = await signup();
    const { id } = await createConversation(user);
    const made = await api("/api/schedules", {
      method: "POST",
      json: {
        conversation_id: id,
        name: "Daily",
        text: "review my day",
        at: new Date(Date.now() + 3600_000).toISOString(),
      },
      headers: user.headers,
    });
    const schedule = (await made.json()) as { id: string };
    await api(`/api/admin/users/${user.user.id}/disable`, { method: "POST", headers: boss.headers });
    await user.db
      .prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), schedule.id)
      .run();
    await runDurableObjectAlarm(stubOf(id));
    const row = await user.db
      .prepare("SELECT last_status, last_error FROM schedules WHERE id = ?")
      .bind(schedule.id)
      .first<{ last_status: string; last_error: string }>();
    expect(row).toMatchObject({ last_status: "failed", last_error: expect.stringMatching(/disabled/) });
    const log = await stubOf(id).messages(
      { conversationId: id, userId: user.user.id },
      { after: 0, limit: 100, view: "path" },
    );
    expect(JSON.stringify(log)).not.toContain("review my day");
  });

  it("an admin cannot disable themselves, and a demotion is refused while it would leave no admin", async () => {
    const boss = await admin();
    const self = await api(`/api/admin/users/${boss.user.id}/disable`, { method: "POST", headers: boss.headers });
    expect(self.status).toBe(409);
    const other = await signup();
    const promote = await api(`/api/admin/users/${other.user.id}/role`, {
      method: "PUT",
      json: { role: "admin" },
      headers: boss.headers,
    });
    expect(promote.status).toBe(200);
    expect(await (await api("/api/me", { headers: other.headers })).json()).toMatchObject({ user: { admin: true } });
    expect(await activeAdmin(other.user.id)).toBe(true);
    const demote = await api(`/api/admin/users/${other.user.id}/role`, {
      method: "PUT",
      json: { role: "user" },
      headers: boss.headers,
    });
    expect(demote.status).toBe(200);
    expect((await api("/api/admin/users", { headers: other.headers })).status).toBe(404);
    expect(await activeAdmin(other.user.id)).toBe(false);
    // With the boss the directory's only active admin (the others set aside for the moment), demoting them
    // is refused, and they stay an admin.
    const others = await env.DIRECTORY.prepare("SELECT user_id, shard FROM directory_admins WHERE user_id <> ?")
      .bind(boss.user.id)
      .all<{ user_id: string; shard: number }>();
    await env.DIRECTORY.prepare("DELETE FROM directory_admins WHERE user_id <> ?").bind(boss.user.id).run();
    try {
      const last = await api(`/api/admin/users/${boss.user.id}/role`, {
        method: "PUT",
        json: { role: "user" },
        headers: boss.headers,
      });
      expect(last.status).toBe(409);
      expect(await last.json()).toMatchObject({
        error: { code: "conflict", message: expect.stringMatching(/last admin/) },
      });
      expect(await activeAdmin(boss.user.id)).toBe(true);
      expect((await api("/api/admin/users", { headers: boss.headers })).status).toBe(200);
    } finally {
      const restore = env.DIRECTORY.prepare("INSERT OR IGNORE INTO directory_admins (user_id, shard) VALUES (?, ?)");
      if (others.results.length) await env.DIRECTORY.batch(others.results.map((r) => restore.bind(r.user_id, r.shard)));
    }
  });
});
