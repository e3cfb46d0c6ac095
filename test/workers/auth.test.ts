import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardOfToken } from "../../core/shard-rules";
import { shardDb, shardForKey } from "../../d1/shards";
import { SHARDS } from "./apply-migrations";
import { api, ORIGIN, signup, uniqueName } from "./helpers";

/** Signs in as `username` from the client address `ip` (as Cloudflare reports it). */
const loginFrom = (username: string) => (password: string, ip: string) =>
  api("/api/auth/login", { method: "POST", json: { username, password }, headers: { "CF-Connecting-IP": ip } });

describe("accounts", () => {
  it("signs up, reads me, logs out and revokes the session server-side", async () => {
    const session = await signup();
    const me = await api("/api/me", { headers: session.headers });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ user: session.user });

    const logout = await api("/api/auth/logout", { method: "POST", headers: session.headers });
    expect(logout.status).toBe(204);
    const after = await api("/api/me", { headers: session.headers });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("sets an HttpOnly, SameSite=Lax session cookie and stores only hashes", async () => {
    const username = uniqueName();
    const res = await api("/api/auth/signup", { method: "POST", json: { username, password: "longenough1" } });
    const cookie = res.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    const token = cookie.split(";")[0]?.split("=")[1] ?? "";
    // No shard holds the token itself; the account's own shard (the token names it) holds its hash.
    for (const shard of SHARDS) {
      const rows = await shard.prepare("SELECT token_hash FROM sessions").all<{ token_hash: string }>();
      expect(rows.results.some((r) => r.token_hash.includes(token))).toBe(false);
    }
    const user = await shardDb(env, shardOfToken(token))
      .prepare("SELECT password_hash FROM users WHERE username = ?")
      .bind(username)
      .first<{ password_hash: string }>();
    expect(user?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/);
  });

  it("refuses a taken username with 409 and bad input with 400 and fields", async () => {
    const session = await signup();
    const taken = await api("/api/auth/signup", {
      method: "POST",
      json: { username: session.user.username, password: "whatever123" },
    });
    expect(taken.status).toBe(409);
    const bad = await api("/api/auth/signup", { method: "POST", json: { username: "A!", password: "short" } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe("invalid_input");
    expect(Object.keys(body.error.fields).sort()).toEqual(["password", "username"]);
    const notJson = await api("/api/auth/signup", {
      method: "POST",
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });

  it("logs in, and answers unknown user and wrong password with the same 401", async () => {
    const session = await signup(undefined, "right-password");
    const ok = await api("/api/auth/login", {
      method: "POST",
      json: { username: session.user.username, password: "right-password" },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Set-Cookie")).toMatch(/oracle_session=/);
    const wrong = await api("/api/auth/login", {
      method: "POST",
      json: { username: session.user.username, password: "wrong-password" },
    });
    const unknown = await api("/api/auth/login", {
      method: "POST",
      json: { username: uniqueName(), password: "wrong-password" },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("rate-limits repeated failed logins with 429, even for the right password", async () => {
    const session = await signup(undefined, "right-password");
    for (let i = 0; i < 5; i++) {
      const res = await api("/api/auth/login", {
        method: "POST",
        json: { username: session.user.username, password: `nope-${i}-xxxx` },
      });
      expect(res.status).toBe(401);
    }
    const limited = await api("/api/auth/login", {
      method: "POST",
      json: { username: session.user.username, password: "right-password" },
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("gives a parallel burst of wrong passwords no more guesses than sequential tries", async () => {
    const session = await signup(undefined, "right-password");
    const address = { "CF-Connecting-IP": "203.0.113.40" };
    const tries = Array.from({ length: 40 }, (_, i) =>
      api("/api/auth/login", {
        method: "POST",
        json: { username: session.user.username, password: i === 39 ? "right-password" : `wrong-${i}-xxxx` },
        headers: address,
      }),
    );
    const statuses = (await Promise.all(tries)).map((r) => r.status);
    // Exactly MAX_ATTEMPTS passwords were checked; every other request was refused unchecked.
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    expect(statuses.filter((s) => s === 401 || s === 200)).toHaveLength(5);
  });

  it("never lets failures from another address refuse the right password from the user's own", async () => {
    const session = await signup(undefined, "right-password");
    const login = loginFrom(session.user.username);
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}-xxxx`, "203.0.113.7")).status).toBe(401);
    expect((await login("right-password", "203.0.113.7")).status).toBe(429);
    expect((await login("right-password", "198.51.100.23")).status).toBe(200);
  });

  it("counts an IPv6 client by its /64, so rotating the rest of the address buys no guesses", async () => {
    const session = await signup(undefined, "right-password");
    const login = loginFrom(session.user.username);
    for (let i = 1; i <= 5; i++) expect((await login(`wrong-${i}-xxxx`, `2001:db8:7:9::${i}`)).status).toBe(401);
    expect((await login("wrong-6-xxxx", "2001:db8:7:9:ffff:1:2:3")).status).toBe(429);
    expect((await login("right-password", "2001:0db8:0007:0009::abcd")).status).toBe(429);
    // Another /64 (another subscriber) is counted apart.
    expect((await login("right-password", "2001:db8:7:a::1")).status).toBe(200);
  });

  it("keeps a browser the user signed in from usable while its shared address is locked", async () => {
    const session = await signup(undefined, "right-password");
    const first = await api("/api/auth/login", {
      method: "POST",
      json: { username: session.user.username, password: "right-password" },
    });
    const device = first.headers.getSetCookie().find((c) => c.startsWith("oracle_device="));
    expect(device).toMatch(/HttpOnly/);
    expect(device).toMatch(/Path=\/api\/auth/);
    const deviceCookie = device?.split(";")[0] ?? "";
    const login = (password: string, headers: Record<string, string> = {}) =>
      api("/api/auth/login", { method: "POST", json: { username: session.user.username, password }, headers });
    // An attacker on the same address (no device cookie) locks that address out for this user...
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}-xxxx`)).status).toBe(401);
    expect((await login("right-password")).status).toBe(429);
    // ...but the user's own browser still signs in, and is itself limited on its own count.
    const own = { Cookie: deviceCookie, Origin: ORIGIN };
    expect((await login("right-password", own)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(`typo-${i}-xxxx`, own)).status).toBe(401);
    expect((await login("right-password", own)).status).toBe(429);
    // A device cookie counts only for the user it was issued to.
    const other = await signup(undefined, "other-password");
    const foreign = await api("/api/auth/login", {
      method: "POST",
      json: { username: other.user.username, password: "other-password" },
      headers: own,
    });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.getSetCookie().some((c) => c.startsWith("oracle_device="))).toBe(true);
  });

  it("prunes the records of windows that have passed", async () => {
    const old = Date.now() - 16 * 60 * 1000;
    // An unknown name's attempts are counted (and the passed windows pruned) in the shard the name falls to.
    const username = uniqueName();
    const shard = shardDb(env, shardForKey(env, username));
    await shard
      .prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 3, ?)")
      .bind(`sign-in:user:${uniqueName()}|old`, old + 15 * 60 * 1000)
      .run();
    const before = Date.now();
    await api("/api/auth/login", { method: "POST", json: { username, password: "whatever-123" } });
    const left = await shard
      .prepare("SELECT COUNT(*) AS n FROM rate_limits WHERE reset_at <= ?")
      .bind(before)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("refuses a logout that carries the cookie but no Origin, and keeps the session", async () => {
    const session = await signup();
    const noOrigin = await api("/api/auth/logout", { method: "POST", headers: { Cookie: session.cookie } });
    expect(noOrigin.status).toBe(403);
    const foreign = await api("/api/auth/logout", {
      method: "POST",
      headers: { Cookie: session.cookie, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await api("/api/me", { headers: session.headers })).status).toBe(200);
  });

  it("refuses cookie-bearing writes from another origin (CSRF) and without an origin", async () => {
    const session = await signup();
    const foreign = await api("/api/conversations", {
      method: "POST",
      json: {},
      headers: { Cookie: session.cookie, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const none = await api("/api/conversations", { method: "POST", json: {}, headers: { Cookie: session.cookie } });
    expect(none.status).toBe(403);
    const list = await api("/api/conversations", { headers: { Cookie: session.cookie } });
    expect(await list.json()).toEqual([]);
  });
});

describe("API tokens", () => {
  it("creates a token shown once, acts as the user with Bearer, lists and revokes it", async () => {
    const session = await signup();
    const created = await api("/api/tokens", { method: "POST", json: { name: "script" }, headers: session.headers });
    expect(created.status).toBe(201);
    const { id, token } = (await created.json()) as { id: string; token: string };
    // The token names the account's shard, where it is kept (as its hash only).
    expect(shardOfToken(token)).toBe(session.shard);
    const stored = await session.db
      .prepare("SELECT token_hash FROM api_tokens WHERE id = ?")
      .bind(id)
      .first<{ token_hash: string }>();
    expect(stored?.token_hash).not.toContain(token);

    // Bearer calls need no Origin: they carry no ambient authority.
    const bearer = { Authorization: `Bearer ${token}` };
    const make = await api("/api/conversations", { method: "POST", json: { title: "from a script" }, headers: bearer });
    expect(make.status).toBe(201);
    const me = await api("/api/me", { headers: bearer });
    expect(await me.json()).toEqual({ user: session.user });

    const listed = (await (await api("/api/tokens", { headers: session.headers })).json()) as {
      id: string;
      name: string;
    }[];
    expect(listed.map((t) => t.name)).toEqual(["script"]);
    expect(JSON.stringify(listed)).not.toContain(token);

    expect((await api(`/api/tokens/${id}`, { method: "DELETE", headers: session.headers })).status).toBe(204);
    expect((await api("/api/me", { headers: bearer })).status).toBe(401);
  });

  it("lets no API token mint, list or delete tokens, so revoking a leaked one ends what it could do", async () => {
    const session = await signup();
    const mint = async (headers: Record<string, string>) =>
      api("/api/tokens", { method: "POST", json: { name: "x" }, headers });
    const leaked = (await (await mint(session.headers)).json()) as { id: string; token: string };
    const other = (await (await mint(session.headers)).json()) as { id: string; token: string };
    const bearer = { Authorization: `Bearer ${leaked.token}` };

    const minted = await mint(bearer);
    expect(minted.status).toBe(403);
    expect(await minted.json()).toMatchObject({ error: { code: "session_required" } });
    expect((await api("/api/tokens", { headers: bearer })).status).toBe(403);
    expect((await api(`/api/tokens/${other.id}`, { method: "DELETE", headers: bearer })).status).toBe(403);
    // Nothing changed: the owner still has exactly the two tokens, and the other one still works.
    const listed = (await (await api("/api/tokens", { headers: session.headers })).json()) as { id: string }[];
    expect(listed.map((t) => t.id).sort()).toEqual([leaked.id, other.id].sort());
    expect((await api("/api/me", { headers: { Authorization: `Bearer ${other.token}` } })).status).toBe(200);
    // The leaked token revoked: nothing it could have made lives on.
    expect((await api(`/api/tokens/${leaked.id}`, { method: "DELETE", headers: session.headers })).status).toBe(204);
    expect((await api("/api/me", { headers: bearer })).status).toBe(401);
    expect((await mint(bearer)).status).toBe(401);
  });

  it("answers 404 for another user's token", async () => {
    const alice = await signup();
    const bob = await signup();
    const { id } = (await (
      await api("/api/tokens", { method: "POST", json: { name: "a" }, headers: alice.headers })
    ).json()) as { id: string };
    expect((await api(`/api/tokens/${id}`, { method: "DELETE", headers: bob.headers })).status).toBe(404);
  });
});

describe("health", () => {
  it("answers without auth and names the model", async () => {
    const res = await api("/api/health");
    expect(await res.json()).toEqual({
      ok: true,
      model: {
        provider: "openai",
        model: "fake-model",
        context_window: 128_000,
        provider_id: "default",
        provider_name: "127.0.0.1",
        max_output_tokens: 8_192,
      },
      // Who may sign up (the tests' app: open).
      signup: "open",
    });
  });

  it("answers unknown API routes with a JSON 404, never HTML", async () => {
    const res = await api("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
