// Settings → Account (docs/protocol.md "Account"): the sessions a user can see and end, a new password
// that ends every other session and its sockets at once, an admin's single-use reset link, and none of
// it open to an API token.
import { describe, expect, it } from "vitest";
import type { AccountSession } from "../../protocol";
import { api, connect, createConversation, ORIGIN, type Session, signup, type TestSocket, uniqueName } from "./helpers";

const PASSWORD = "correct horse battery";

async function login(
  username: string,
  password = PASSWORD,
  userAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
) {
  const res = await api("/api/auth/login", {
    method: "POST",
    json: { username, password },
    headers: { Origin: ORIGIN, "User-Agent": userAgent, "CF-Connecting-IP": "203.0.113.7" },
  });
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  return { status: res.status, headers: { Cookie: cookie, Origin: ORIGIN } };
}

async function sessionsOf(headers: Record<string, string>): Promise<AccountSession[]> {
  const res = await api("/api/account/sessions", { headers });
  expect(res.status).toBe(200);
  return res.json();
}

async function closedAsSignedOut(socket: TestSocket) {
  const until = Date.now() + 5000;
  while (!socket.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(socket.frames.some((f) => f.type === "error" && f.code === "unauthorized")).toBe(true);
  expect(socket.closeCode).toBe(4401);
}

async function signedIn(headers: Record<string, string>) {
  return (await api("/api/me", { headers })).status === 200;
}

describe("sessions", () => {
  it("lists where and how each session signed in, marks the one in use, and never shows a secret", async () => {
    const me = await signup();
    const other = await login(me.user.username);
    const list = await sessionsOf(me.headers);
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const firefox = list.find((s) => !s.current);
    expect(firefox).toMatchObject({ device: "Firefox on Linux", address: "203.0.113.7", method: "password" });
    expect(list.find((s) => s.current)?.method).toBe("signup");
    const cookieSecret = other.headers.Cookie.split("=")[1] ?? "";
    expect(JSON.stringify(list)).not.toContain(cookieSecret);
    const hashes = await me.db.prepare("SELECT token_hash FROM sessions WHERE user_id = ?").bind(me.user.id).all();
    for (const row of hashes.results) expect(JSON.stringify(list)).not.toContain(String(row.token_hash));
  });

  it("signs out one other session and its open socket at once; another user's session is a 404", async () => {
    const me = await signup();
    const phone = await login(me.user.username);
    const { id } = await createConversation(me);
    const socket = await connect(phone, id);
    const target = (await sessionsOf(me.headers)).find((s) => !s.current);
    const stranger = await signup();
    expect(
      (await api(`/api/account/sessions/${target?.id}`, { method: "DELETE", headers: stranger.headers })).status,
    ).toBe(404);
    expect(await signedIn(phone.headers)).toBe(true);

    const res = await api(`/api/account/sessions/${target?.id}`, { method: "DELETE", headers: me.headers });
    expect(res.status).toBe(204);
    await closedAsSignedOut(socket);
    expect(await signedIn(phone.headers)).toBe(false);
    expect(await signedIn(me.headers)).toBe(true);
  });

  it("signs out everywhere else and keeps the session in use", async () => {
    const me = await signup();
    const a = await login(me.user.username);
    const b = await login(me.user.username);
    const { id } = await createConversation(me);
    const socket = await connect(a, id);
    const mine = await connect(me, id);
    const res = await api("/api/account/sessions/sign-out-others", { method: "POST", headers: me.headers });
    expect(await res.json()).toEqual({ signed_out: 2 });
    await closedAsSignedOut(socket);
    expect(await signedIn(a.headers)).toBe(false);
    expect(await signedIn(b.headers)).toBe(false);
    expect(await signedIn(me.headers)).toBe(true);
    expect(mine.closed).toBe(false);
    expect(await sessionsOf(me.headers)).toHaveLength(1);
  });
});

describe("changing the password", () => {
  it("needs the current password, ends every other session and socket at once, and keeps this one", async () => {
    const me = await signup();
    const laptop = await login(me.user.username);
    const { id } = await createConversation(me);
    const socket = await connect(laptop, id);
    const wrong = await api("/api/account/password", {
      method: "POST",
      json: { new_password: "a brand new secret", confirm: { password: "not my password" } },
      headers: me.headers,
    });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: { code: "confirmation_failed" } });
    expect(await signedIn(laptop.headers)).toBe(true);

    const res = await api("/api/account/password", {
      method: "POST",
      json: { new_password: "a brand new secret", confirm: { password: PASSWORD } },
      headers: me.headers,
    });
    expect(await res.json()).toEqual({ signed_out: 1 });
    await closedAsSignedOut(socket);
    expect(await signedIn(laptop.headers)).toBe(false);
    expect(await signedIn(me.headers)).toBe(true);
    expect((await login(me.user.username)).status).toBe(401);
    expect((await login(me.user.username, "a brand new secret")).status).toBe(200);
  });

  it("refuses a new password that breaks the rules, and changes nothing", async () => {
    const me = await signup();
    const res = await api("/api/account/password", {
      method: "POST",
      json: { new_password: "short", confirm: { password: PASSWORD } },
      headers: me.headers,
    });
    expect(res.status).toBe(400);
    expect((await login(me.user.username)).status).toBe(200);
  });
});

describe("what an API token cannot do", () => {
  it("is refused every account route with 403 session_required", async () => {
    const me = await signup();
    const made = await api("/api/tokens", { method: "POST", json: { name: "script" }, headers: me.headers });
    const { token } = (await made.json()) as { token: string };
    const bearer = { Authorization: `Bearer ${token}` };
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/account"],
      ["GET", "/api/account/sessions"],
      ["POST", "/api/account/sessions/sign-out-others"],
      ["POST", "/api/account/password", { new_password: "a brand new secret", confirm: { password: PASSWORD } }],
    ];
    for (const [method, path, json] of routes) {
      const res = await api(path, { method, headers: bearer, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: "session_required" } });
    }
    expect((await login(me.user.username)).status).toBe(200);
  });
});

describe("an admin's reset link", () => {
  async function admin(): Promise<Session> {
    const session = await signup();
    await session.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(session.user.id).run();
    return session;
  }

  it("sets a new password once, signs out everywhere else, and is refused a second time", async () => {
    const boss = await admin();
    const me = await signup(uniqueName("forgetful"));
    const { id } = await createConversation(me);
    const socket = await connect(me, id);
    const made = await api(`/api/admin/users/${me.user.id}/reset-link`, { method: "POST", headers: boss.headers });
    expect(made.status).toBe(201);
    const { url } = (await made.json()) as { url: string };
    const token = new URL(url, ORIGIN).searchParams.get("token");
    const reset = (new_password: string) =>
      api("/api/auth/reset", { method: "POST", json: { token, new_password }, headers: { Origin: ORIGIN } });

    const used = await reset("remembered at last");
    expect(used.status).toBe(200);
    expect(used.headers.get("Set-Cookie")).toContain("oracle_session=");
    await closedAsSignedOut(socket);
    expect(await signedIn(me.headers)).toBe(false);
    expect((await login(me.user.username, "remembered at last")).status).toBe(200);

    const again = await reset("someone else's guess");
    expect(again.status).toBe(403);
    expect((await login(me.user.username, "someone else's guess")).status).toBe(401);
    const audit = await api("/api/admin/audit", { headers: boss.headers });
    expect(JSON.stringify(await audit.json())).toContain('"reset_link"');
  });

  it("is the admin's alone: anyone else gets a 404", async () => {
    const me = await signup();
    const other = await signup();
    const res = await api(`/api/admin/users/${other.user.id}/reset-link`, { method: "POST", headers: me.headers });
    expect(res.status).toBe(404);
  });
});
