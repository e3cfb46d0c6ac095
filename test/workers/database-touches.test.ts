// Which D1 databases each request and socket frame touches (docs/architecture.md "Scale"): the directory
// at most, and one shard, the signed-in user's; never another user's shard. Every route the app has is
// called (by its own method, with a body that is empty or wrong, so it runs identity, validation and the
// ownership lookups), and the common writes are called as they succeed, on users spread over three shards.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { watchDatabases } from "../../d1/shards";
import { app } from "../../worker/app";
import { api, connect, createConversation, ORIGIN, type Session, signup, usersOnTwoShards } from "./helpers";

let touched: string[] = [];
watchDatabases((name) => touched.push(name));
afterEach(() => {
  touched = [];
});

/** The databases `run` touched, once each, after background work (waitUntil) settled. */
async function touchedBy(run: () => Promise<unknown>): Promise<Set<string>> {
  touched = [];
  await run();
  await new Promise((resolve) => setTimeout(resolve, 30));
  return new Set(touched);
}

const shards = (names: Set<string>) => [...names].filter((name) => name.startsWith("shard"));

let alice: Session;
let bob: Session;
beforeAll(async () => {
  [alice, bob] = await usersOnTwoShards();
});

describe("the databases a request touches", () => {
  it("every route, as it refuses a wrong body or an unknown id: the directory at most and the caller's shard", async () => {
    const routes = new Set(
      app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/\/+$/, "") || "/"}`),
    );
    expect(routes.size).toBeGreaterThan(80);
    // A user of its own: the sweep signs out at its end (logout last, so every other route runs signed in).
    const carol = await signup();
    const last = (route: string) => (route.includes("/auth/logout") ? 1 : 0);
    const failures: string[] = [];
    for (const route of [...routes].sort((a, b) => last(a) - last(b))) {
      const [method, pattern] = route.split(" ") as [string, string];
      // A WebSocket route answers 426 without an upgrade; a path parameter gets an id nobody has.
      const path = pattern.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) =>
        name === "path" ? "missing.md" : "unknown-id",
      );
      const seen = await touchedBy(async () => {
        const res = await api(path, {
          method,
          headers: carol.headers,
          ...(method === "GET" || method === "DELETE" ? {} : { json: {} }),
        });
        await res.arrayBuffer();
      });
      // Routes that need no account (signing in, a share link's page) read the one shard their name or id
      // says; every other request reads the caller's.
      const anonymous = /^\w+ \/api\/(auth|shared|oauth)\//.test(route);
      const other = shards(seen).filter((name) => !anonymous && name !== `shard ${carol.shard}`);
      // The one request between two users: copying someone's share link reads the link's shard too.
      const most = route === "POST /api/shared/:id/fork" ? 2 : 1;
      if (other.length > most - 1 || shards(seen).length > most) failures.push(`${route}: ${[...seen].join(", ")}`);
    }
    expect(failures).toEqual([]);
  });

  it("the common writes as they succeed, for users on two shards: each in its own shard only", async () => {
    for (const user of [alice, bob]) {
      const mine = `shard ${user.shard}`;
      const steps: [string, () => Promise<Response>][] = [
        ["note", () => api("/api/notes/touch.md", { method: "PUT", headers: user.headers, json: { content: "x" } })],
        ["task", () => api("/api/tasks", { method: "POST", headers: user.headers, json: { title: "t" } })],
        [
          "settings",
          () => api("/api/settings/agent", { method: "PUT", headers: user.headers, json: { maxIterations: 7 } }),
        ],
        ["conversations", () => api("/api/conversations", { headers: user.headers })],
        ["search", () => api("/api/search?q=touch", { headers: user.headers })],
        ["me", () => api("/api/me", { headers: user.headers })],
      ];
      for (const [what, step] of steps) {
        const seen = await touchedBy(async () => expect((await step()).status).toBeLessThan(300));
        expect([what, shards(seen)]).toEqual([what, [mine]]);
        expect([what, seen.has("directory")]).toEqual([what, false]);
      }
    }
  });

  it("a chat turn over the socket, with its index and title writes: the owner's shard only", async () => {
    for (const user of [alice, bob]) {
      const conversation = await createConversation(user);
      const seen = await touchedBy(async () => {
        const socket = await connect(user, conversation.id);
        socket.send({ type: "chat", content: "Plan the launch of the beta in May" });
        await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
        // The title is written after the turn: waited for here, so its write (and its model call's use)
        // falls in this user's window and not, on a slow machine, in the next user's.
        await socket.next("conversation_title", () => true, { timeoutMs: 20_000 });
        socket.ws.close();
      });
      expect(shards(seen)).toEqual([`shard ${user.shard}`]);
      expect(seen.has("directory")).toBe(false);
    }
  });

  it("signing in reads the directory once for the name, then only that account's shard", async () => {
    const seen = await touchedBy(async () => {
      const res = await api("/api/auth/login", {
        method: "POST",
        headers: { Origin: ORIGIN },
        json: { username: bob.user.username, password: "correct horse battery" },
      });
      expect(res.status).toBe(200);
    });
    expect(seen).toEqual(new Set(["directory", `shard ${bob.shard}`]));
  });

  it("a share link's public page reads the link's shard alone, found from its id", async () => {
    const conversation = await createConversation(bob);
    const made = await api(`/api/conversations/${conversation.id}/shares`, {
      method: "POST",
      headers: bob.headers,
      json: {},
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    expect(id.startsWith(`${bob.shard}.`)).toBe(true);
    const seen = await touchedBy(async () => expect((await api(`/api/shared/${id}`)).status).toBe(200));
    expect(seen).toEqual(new Set([`shard ${bob.shard}`]));
  });

  it("nothing of one user is visible to another on a different shard", async () => {
    await api("/api/notes/private.md", { method: "PUT", headers: alice.headers, json: { content: "alice only" } });
    expect((await api("/api/notes/private.md", { headers: bob.headers })).status).toBe(404);
    const notes = (await (await api("/api/notes", { headers: bob.headers })).json()) as { notes: { path: string }[] };
    expect(notes.notes.map((n) => n.path)).not.toContain("private.md");
    // Alice's rows are in her shard and nowhere else.
    const rows = await Promise.all(
      [env.DB, env.SHARD_1, env.SHARD_2].map((d1) =>
        d1.prepare("SELECT count(*) AS n FROM notes WHERE user_id = ?").bind(alice.user.id).first<{ n: number }>(),
      ),
    );
    expect(rows.map((r, i) => (i === alice.shard ? (r?.n ?? 0) > 0 : r?.n === 0))).toEqual([true, true, true]);
  });

  it("an admin on one shard finds, limits and disables a user on another: the directory, and the two accounts' shards", async () => {
    const [admin, user] = await usersOnTwoShards();
    await admin.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(admin.user.id).run();
    // The list is every shard's, merged (d1/across-shards.ts): both users are in it.
    const listed = (await (
      await api(`/api/admin/users?q=${encodeURIComponent(user.user.username)}`, { headers: admin.headers })
    ).json()) as { users: { id: string }[] };
    expect(listed.users.map((u) => u.id)).toEqual([user.user.id]);
    const seen = await touchedBy(async () => {
      const res = await api(`/api/admin/users/${user.user.id}/disable`, { method: "POST", headers: admin.headers });
      expect(res.status).toBe(200);
    });
    expect(seen).toEqual(new Set(["directory", `shard ${admin.shard}`, `shard ${user.shard}`]));
    // Revocation crossed shards at once: the user's session is gone.
    expect((await api("/api/me", { headers: user.headers })).status).toBe(401);
  });

  it("a share link copied by a user on another shard: the copy is the caller's, the original stays the owner's", async () => {
    const conversation = await createConversation(alice);
    const { id } = (await (
      await api(`/api/conversations/${conversation.id}/shares`, { method: "POST", headers: alice.headers, json: {} })
    ).json()) as { id: string };
    const fork = await api(`/api/shared/${id}/fork`, { method: "POST", headers: bob.headers });
    expect(fork.status).toBe(201);
    const copy = (await fork.json()) as { id: string };
    const listOf = async (user: Session) =>
      ((await (await api("/api/conversations", { headers: user.headers })).json()) as { id: string }[]).map(
        (c) => c.id,
      );
    expect(await listOf(bob)).toContain(copy.id);
    expect(await listOf(alice)).not.toContain(copy.id);
    expect(await listOf(bob)).not.toContain(conversation.id);
  });

  it("a credential naming a shard this installation does not have signs nobody in, and reads no database", async () => {
    const hex = "ab".repeat(32);
    const seen = await touchedBy(async () => {
      expect((await api("/api/me", { headers: { Authorization: `Bearer ot_s9_${hex}` } })).status).toBe(401);
      expect((await api("/api/me", { headers: { Cookie: `oracle_session=os_s9_${hex}` } })).status).toBe(401);
    });
    expect(seen).toEqual(new Set());
  });
});
