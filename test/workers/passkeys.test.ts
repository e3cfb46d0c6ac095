// Passkeys against the real Worker (docs/protocol.md "Passkeys"), answered by a software authenticator
// (test/support/soft-authenticator.ts) as a browser's would be: signing up with a passkey alone and in
// without a username; each challenge used once and for five minutes only; an answer made for another
// origin refused; the last way into an account never removed; the sign-up policy held; a passkey as a
// confirmation (worker/auth/confirm.ts).
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { confirmIdentity } from "../../worker/auth/confirm";
import { sha256Hex } from "../../worker/auth/crypto";
import { handleError } from "../../worker/errors";
import worker from "../../worker/index";
import { type AppEnv, enterShard } from "../../worker/middleware/identity";
import { SoftAuthenticator } from "../support/soft-authenticator";
import { SHARDS } from "./apply-migrations";
import { api, ORIGIN, type Session, sessionFrom, signup, uniqueName } from "./helpers";

type Json = Record<string, unknown>;
type Options = { challenge_id: string; options: Json };

const CHROME_ON_LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36";

const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  api(path, { method: "POST", json, headers: { Origin: ORIGIN, "User-Agent": CHROME_ON_LINUX, ...headers } });

/** The session a sign-in answered with, as a same-origin browser would send it back. */
function sessionOf(res: Response, user: Session["user"]): Session {
  const cookie =
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith("oracle_session="))
      ?.split(";")[0] ?? "";
  return sessionFrom(user, cookie);
}

async function options(path: string, body: Json = {}, headers: Record<string, string> = {}): Promise<Options> {
  const res = await post(path, body, headers);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function passkeySignup(authenticator: SoftAuthenticator, username = uniqueName("pk")) {
  const begun = await options("/api/auth/passkey/signup-options", { username });
  const response = await authenticator.create(begun.options, ORIGIN);
  const res = await post("/api/auth/passkey/signup", { challenge_id: begun.challenge_id, response });
  if (res.status !== 201) throw new Error(`passkey signup: ${res.status} ${await res.text()}`);
  const { user } = (await res.json()) as { user: Session["user"] };
  return sessionOf(res, user);
}

async function passkeySignin(authenticator: SoftAuthenticator, origin = ORIGIN) {
  const begun = await options("/api/auth/passkey/signin-options");
  const response = await authenticator.get(begun.options, origin);
  const body = { challenge_id: begun.challenge_id, response };
  return { body, res: await post("/api/auth/passkey/signin", body) };
}

async function addPasskey(session: Session, authenticator: SoftAuthenticator, name?: string) {
  const begun = await options("/api/account/passkeys/options", {}, session.headers);
  const response = await authenticator.create(begun.options, ORIGIN);
  const res = await post(
    "/api/account/passkeys",
    { challenge_id: begun.challenge_id, response, name },
    session.headers,
  );
  return res;
}

const listPasskeys = async (session: Session) =>
  (await (await api("/api/account/passkeys", { headers: session.headers })).json()) as {
    id: string;
    name: string;
    last_used_at: string | null;
  }[];

describe("signing up and in with a passkey", () => {
  it("signs up with a passkey alone, then signs in with it and no username", async () => {
    const authenticator = new SoftAuthenticator();
    const session = await passkeySignup(authenticator);
    const me = await api("/api/me", { headers: session.headers });
    expect(await me.json()).toEqual({ user: session.user });
    const row = await session.db
      .prepare("SELECT password_hash FROM users WHERE id = ?")
      .bind(session.user.id)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toBe("");
    // No password to guess: a login with any password is the same 401 as a wrong one.
    const login = await post("/api/auth/login", { username: session.user.username, password: "" });
    expect(login.status).toBe(401);
    expect(await listPasskeys(session)).toEqual([
      expect.objectContaining({ name: "Chrome on Linux", last_used_at: null, backed_up: false }),
    ]);

    const { body, res } = await passkeySignin(authenticator);
    expect(body.challenge_id).toBeTruthy();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: session.user });
    const signedIn = sessionOf(res, session.user);
    expect((await api("/api/me", { headers: signedIn.headers })).status).toBe(200);
    const stored = await session.db
      .prepare("SELECT counter, last_used_at FROM passkeys WHERE user_id = ?")
      .bind(session.user.id)
      .first<{ counter: number; last_used_at: string | null }>();
    expect(stored).toMatchObject({ counter: 1, last_used_at: expect.any(String) });
    const method = await session.db
      .prepare("SELECT method FROM sessions WHERE user_id = ? ORDER BY created_at DESC")
      .bind(session.user.id)
      .first<{ method: string }>();
    expect(method?.method).toBe("passkey");
  });

  it("offers no credentials to pick from at sign-in (discoverable), and requires a resident key at sign-up", async () => {
    const signin = await options("/api/auth/passkey/signin-options");
    expect(signin.options.allowCredentials ?? []).toEqual([]);
    expect(signin.options.rpId).toBe("oracle.test");
    const signupOptions = await options("/api/auth/passkey/signup-options", { username: uniqueName("pk") });
    expect(signupOptions.options.authenticatorSelection).toMatchObject({ residentKey: "required" });
    expect(signupOptions.options.rp).toMatchObject({ id: "oracle.test", name: "Oracle" });
  });

  it("takes a challenge once: the same answer again is refused", async () => {
    const authenticator = new SoftAuthenticator();
    await passkeySignup(authenticator);
    const { body, res } = await passkeySignin(authenticator);
    expect(res.status).toBe(200);
    const replay = await post("/api/auth/passkey/signin", body);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({
      error: { code: "unauthorized", message: /expired or was already used/ },
    });

    const begun = await options("/api/auth/passkey/signup-options", { username: uniqueName("pk") });
    const made = { challenge_id: begun.challenge_id, response: await authenticator.create(begun.options, ORIGIN) };
    expect((await post("/api/auth/passkey/signup", made)).status).toBe(201);
    expect((await post("/api/auth/passkey/signup", made)).status).toBe(400);
  });

  it("refuses an expired challenge", async () => {
    const authenticator = new SoftAuthenticator();
    await passkeySignup(authenticator);
    const begun = await options("/api/auth/passkey/signin-options");
    // A sign-in's challenge names no account yet: it is in the directory.
    await env.DIRECTORY.prepare("UPDATE auth_challenges SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), await sha256Hex(begun.challenge_id))
      .run();
    const response = await authenticator.get(begun.options, ORIGIN);
    const res = await post("/api/auth/passkey/signin", { challenge_id: begun.challenge_id, response });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { message: /expired/ } });
  });

  it("refuses an answer made for another origin, and uses its challenge up", async () => {
    const authenticator = new SoftAuthenticator();
    const session = await passkeySignup(authenticator);
    const { body, res } = await passkeySignin(authenticator, "https://evil.example");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { message: /could not be verified/ } });
    expect((await post("/api/auth/passkey/signin", body)).status).toBe(401);

    const begun = await options("/api/account/passkeys/options", {}, session.headers);
    const response = await authenticator.create(begun.options, "https://evil.example");
    const add = await post("/api/account/passkeys", { challenge_id: begun.challenge_id, response }, session.headers);
    expect(add.status).toBe(400);
    expect(await listPasskeys(session)).toHaveLength(1);
  });

  it("says a passkey this server does not know is not registered here", async () => {
    const stranger = new SoftAuthenticator();
    const begun = await options("/api/auth/passkey/signin-options");
    await stranger.create({ rp: { id: "oracle.test" }, user: { id: "c29tZW9uZQ" }, challenge: "x" }, ORIGIN);
    const response = await stranger.get(begun.options, ORIGIN);
    const res = await post("/api/auth/passkey/signin", { challenge_id: begun.challenge_id, response });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { message: "This passkey is not registered here" } });
  });

  it("refuses a disabled account's passkey with 403, and gives a pending account its session", async () => {
    const authenticator = new SoftAuthenticator();
    const session = await passkeySignup(authenticator);
    await session.db.prepare("UPDATE users SET status = 'pending' WHERE id = ?").bind(session.user.id).run();
    const pending = await passkeySignin(authenticator);
    expect(pending.res.status).toBe(200);
    expect(await pending.res.json()).toMatchObject({ user: { status: "pending" } });
    await session.db.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(session.user.id).run();
    const disabled = await passkeySignin(authenticator);
    expect(disabled.res.status).toBe(403);
    expect(await disabled.res.json()).toMatchObject({ error: { code: "account_disabled" } });
  });

  it("refuses a taken username before the ceremony with 409", async () => {
    const taken = await signup();
    const res = await post("/api/auth/passkey/signup-options", { username: taken.user.username });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: "conflict", fields: { username: "already taken" } } });
  });

  it("refuses a cross-site request on the sign-in routes", async () => {
    const res = await post("/api/auth/passkey/signin-options", {}, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: "forbidden_origin" } });
  });
});

describe("a signed-in user's passkeys", () => {
  it("adds, renames and removes passkeys, but never the last way in", async () => {
    const phone = new SoftAuthenticator();
    const session = await passkeySignup(phone);
    const [only] = await listPasskeys(session);
    const last = await api(`/api/account/passkeys/${only?.id}`, { method: "DELETE", headers: session.headers });
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ error: { code: "last_sign_in_method", message: /only way into/ } });

    const laptop = new SoftAuthenticator();
    const added = await addPasskey(session, laptop, "Laptop");
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ name: "Laptop", last_used_at: null });
    // Neither authenticator may register the same credential twice: the options exclude both.
    const again = await options("/api/account/passkeys/options", {}, session.headers);
    expect((again.options.excludeCredentials as unknown[]).length).toBe(2);

    const renamed = await api(`/api/account/passkeys/${only?.id}`, {
      method: "PATCH",
      json: { name: "  Phone  " },
      headers: session.headers,
    });
    expect(await renamed.json()).toMatchObject({ id: only?.id, name: "Phone" });

    const removed = await api(`/api/account/passkeys/${only?.id}`, { method: "DELETE", headers: session.headers });
    expect(removed.status).toBe(204);
    expect((await listPasskeys(session)).map((p) => p.name)).toEqual(["Laptop"]);
    expect((await passkeySignin(phone)).res.status).toBe(401);
    expect((await passkeySignin(laptop)).res.status).toBe(200);
    const [kept] = await listPasskeys(session);
    const lastAgain = await api(`/api/account/passkeys/${kept?.id}`, { method: "DELETE", headers: session.headers });
    expect(lastAgain.status).toBe(409);
  });

  it("removes a password account's only passkey (the password stays a way in)", async () => {
    const session = await signup();
    expect((await addPasskey(session, new SoftAuthenticator())).status).toBe(201);
    const [passkey] = await listPasskeys(session);
    const res = await api(`/api/account/passkeys/${passkey?.id}`, { method: "DELETE", headers: session.headers });
    expect(res.status).toBe(204);
  });

  it("removes exactly one of two passkeys removed at once", async () => {
    const session = await passkeySignup(new SoftAuthenticator());
    expect((await addPasskey(session, new SoftAuthenticator())).status).toBe(201);
    const both = await listPasskeys(session);
    const results = await Promise.all(
      both.map((p) => api(`/api/account/passkeys/${p.id}`, { method: "DELETE", headers: session.headers })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
    expect(await listPasskeys(session)).toHaveLength(1);
  });

  it("answers another user's passkey with 404", async () => {
    const owner = await passkeySignup(new SoftAuthenticator());
    const [passkey] = await listPasskeys(owner);
    const other = await signup();
    expect((await addPasskey(other, new SoftAuthenticator())).status).toBe(201);
    const path = `/api/account/passkeys/${passkey?.id}`;
    expect((await api(path, { method: "DELETE", headers: other.headers })).status).toBe(404);
    expect((await api(path, { method: "PATCH", json: { name: "mine" }, headers: other.headers })).status).toBe(404);
    expect((await listPasskeys(other)).map((p) => p.id)).not.toContain(passkey?.id);
  });

  it("refuses an API token with 403 session_required", async () => {
    const session = await signup();
    const created = await post("/api/tokens", { name: "script" }, session.headers);
    const { token } = (await created.json()) as { token: string };
    const bearer = { Authorization: `Bearer ${token}` };
    for (const [method, path] of [
      ["GET", "/api/account/passkeys"],
      ["POST", "/api/account/passkeys/options"],
      ["POST", "/api/account/passkeys/confirm-options"],
    ] as const) {
      const res = await api(path, { method, headers: bearer, ...(method === "POST" ? { json: {} } : {}) });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: "session_required" } });
    }
  });
});

/** The Worker with these variables, as the runtime calls it, from an address of the test's own. */
const withVars =
  (vars: Partial<Env>, address = `2001:db8:${crypto.getRandomValues(new Uint16Array(1))[0]?.toString(16)}::1`) =>
  (path: string, json: unknown) =>
    Promise.resolve(
      worker.fetch(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { Origin: ORIGIN, "Content-Type": "application/json", "CF-Connecting-IP": address },
          body: JSON.stringify(json),
        }) as Parameters<typeof worker.fetch>[0],
        { ...env, SIGNUP_PER_HOUR: "0", ...vars },
        createExecutionContext(),
      ),
    );

describe("the sign-up policy holds for a passkey's sign-up", () => {
  it("refuses the ceremony when sign-ups are closed or need an invite", async () => {
    const closed = await withVars({ SIGNUP: "closed" })("/api/auth/passkey/signup-options", {
      username: uniqueName("pk"),
    });
    expect(closed.status).toBe(403);
    expect(await closed.json()).toMatchObject({ error: { code: "signup_closed" } });
    const invite = await withVars({ SIGNUP: "invite" })("/api/auth/passkey/signup-options", {
      username: uniqueName("pk"),
    });
    expect(invite.status).toBe(403);
  });

  it("checks again when the ceremony ends: closed meanwhile, no account is made", async () => {
    const username = uniqueName("pk");
    const begun = await options("/api/auth/passkey/signup-options", { username });
    const response = await new SoftAuthenticator().create(begun.options, ORIGIN);
    const res = await withVars({ SIGNUP: "closed" })("/api/auth/passkey/signup", {
      challenge_id: begun.challenge_id,
      response,
    });
    expect(res.status).toBe(403);
    // No account in any shard, and the username is not held in the directory.
    for (const shard of SHARDS) {
      expect(await shard.prepare("SELECT 1 FROM users WHERE username = ?").bind(username).first()).toBeNull();
    }
    const held = await env.DIRECTORY.prepare("SELECT 1 FROM directory_users WHERE username = ?").bind(username).first();
    expect(held).toBeNull();
  });

  it("uses up an invite link, and makes a pending account under approval", async () => {
    const boss = await signup();
    await boss.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(boss.user.id).run();
    const made = await api("/api/admin/invites", { method: "POST", json: {}, headers: boss.headers });
    const { token } = (await made.json()) as { token: string };
    const invited = withVars({ SIGNUP: "invite" });
    const signUpWith = async (call: typeof invited, invite?: string) => {
      const begun = await call("/api/auth/passkey/signup-options", { username: uniqueName("pk"), invite });
      const { challenge_id, options: created } = (await begun.json()) as Options;
      const response = await new SoftAuthenticator().create(created, ORIGIN);
      return call("/api/auth/passkey/signup", { challenge_id, response });
    };
    expect((await signUpWith(invited, token)).status).toBe(201);
    const reused = await signUpWith(invited, token);
    expect(reused.status).toBe(403);
    expect(await reused.json()).toMatchObject({ error: { code: "signup_closed", message: /used/ } });
    const waiting = await signUpWith(withVars({ SIGNUP: "approval" }));
    expect(await waiting.json()).toMatchObject({ user: { status: "pending" } });
  });

  it("counts a passkey's sign-up in the per-address limit", async () => {
    const call = withVars({ SIGNUP: "open", SIGNUP_PER_HOUR: "1" });
    const first = await call("/api/auth/passkey/signup-options", { username: uniqueName("pk") });
    const second = await call("/api/auth/passkey/signup-options", { username: uniqueName("pk") });
    expect([first.status, second.status]).toEqual([200, 429]);
  });
});

describe("a passkey as a confirmation", () => {
  /** A route that asks for `confirm`, as changing the password or deleting the account do. */
  const confirming = new Hono<AppEnv>()
    .post("/confirm/:shard/:user", async (c) => {
      // As identity does once it knows the user: the request reads and writes the user's shard.
      enterShard(c, Number(c.req.param("shard")));
      await confirmIdentity(c, c.req.param("user"), await c.req.json());
      return c.body(null, 204);
    })
    .onError(handleError);
  const confirm = (session: Session, body: unknown) =>
    confirming.request(
      `${ORIGIN}/confirm/${session.shard}/${session.user.id}`,
      { method: "POST", body: JSON.stringify(body) },
      env,
    );

  it("confirms with the user's own passkey, once", async () => {
    const authenticator = new SoftAuthenticator();
    const session = await passkeySignup(authenticator);
    const begun = await options("/api/account/passkeys/confirm-options", {}, session.headers);
    expect(begun.options.allowCredentials).toHaveLength(1);
    const passkey = { challenge_id: begun.challenge_id, response: await authenticator.get(begun.options, ORIGIN) };
    expect((await confirm(session, { passkey })).status).toBe(204);
    const replay = await confirm(session, { passkey });
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ error: { code: "confirmation_failed" } });
  });

  it("refuses another user's challenge or passkey", async () => {
    const mine = new SoftAuthenticator();
    const me = await passkeySignup(mine);
    const theirs = new SoftAuthenticator();
    const them = await passkeySignup(theirs);
    // Their challenge, my passkey: the challenge is not mine to use.
    const begun = await options("/api/account/passkeys/confirm-options", {}, them.headers);
    const response = await mine.get({ ...begun.options, allowCredentials: [] }, ORIGIN);
    expect((await confirm(me, { passkey: { challenge_id: begun.challenge_id, response } })).status).toBe(403);
    // My challenge, their passkey.
    const mineBegun = await options("/api/account/passkeys/confirm-options", {}, me.headers);
    const theirAnswer = await theirs.get({ ...mineBegun.options, allowCredentials: [] }, ORIGIN);
    const res = await confirm(me, { passkey: { challenge_id: mineBegun.challenge_id, response: theirAnswer } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { message: /not one of this account's/ } });
  });

  it("has no passkey challenge for an account without passkeys", async () => {
    const session = await signup();
    expect((await post("/api/account/passkeys/confirm-options", {}, session.headers)).status).toBe(404);
  });
});
