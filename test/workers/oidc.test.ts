// Signing in with an identity provider, server side (docs/protocol.md "Identity providers"): the Worker's
// routes against the tiny issuers of test/support/tiny-issuer.ts, each of which gets one check wrong, so
// every check is seen refusing (the ID token's signature, audience, issuer, expiry, nonce, an unsigned
// token; the state: replayed, forged, from another browser, for another provider), and the accounts it
// makes and links (the sign-up policy, usernames, a disabled account, linking and unlinking, the last way
// in). The browser's side, against a real OpenID provider, is test/e2e/oidc.test.ts.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { type AccountIdentities, OidcProvidersSchema, type User } from "../../protocol";
import { app } from "../../worker/app";
import { TINY_CLIENT, TINY_MODES, type TinyMode } from "../support/tiny-issuer-client";
import { SHARDS } from "./apply-migrations";
import { ORIGIN, signup, uniqueName, userDb } from "./helpers";

const issuers = inject("tinyIssuerUrl");

function oidcEnv(extra: Partial<Env> = {}): Env {
  const vars: Record<string, string> = { OIDC_PROVIDERS: TINY_MODES.join(",") };
  for (const mode of TINY_MODES) {
    const key = `OIDC_${mode.toUpperCase()}`;
    vars[`${key}_ISSUER`] = `${issuers}/${mode}`;
    vars[`${key}_CLIENT_ID`] = TINY_CLIENT.id;
    vars[`${key}_CLIENT_SECRET`] = TINY_CLIENT.secret;
  }
  return { ...env, ...vars, ...extra } as Env;
}

type Options = { cookies?: string[]; vars?: Partial<Env>; init?: RequestInit };

function call(path: string, { cookies = [], vars, init = {} }: Options = {}) {
  const headers = new Headers(init.headers);
  if (cookies.length) headers.set("Cookie", cookies.join("; "));
  return app.request(new URL(path, ORIGIN).toString(), { redirect: "manual", ...init, headers }, oidcEnv(vars));
}

/** `name=value` of a cookie the response sets (an empty value when it clears it). */
function cookieFrom(res: Response, name: string): string | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line?.split(";")[0];
}

const location = (res: Response) => new URL(res.headers.get("Location") ?? "", ORIGIN);

/** The browser at the provider: it approves at once as `subject`, and sends the browser back. */
async function atProvider(authorize: URL, subject: string): Promise<URL> {
  authorize.searchParams.set("login_hint", subject);
  const res = await fetch(authorize, { redirect: "manual" });
  expect(res.status, await res.clone().text()).toBe(302);
  return new URL(res.headers.get("Location") ?? "");
}

/** A whole flow as a browser makes it: start, the provider, the callback (its response). */
async function flow(mode: TinyMode, subject: string, opts: Options & { query?: string } = {}) {
  const start = await call(`/api/auth/oidc/${mode}/start${opts.query ?? ""}`, opts);
  expect(start.status).toBe(302);
  const flowCookie = cookieFrom(start, "oracle_oidc");
  expect(flowCookie).toBeDefined();
  const back = await atProvider(location(start), subject);
  const res = await call(back.pathname + back.search, {
    ...opts,
    cookies: [...(opts.cookies ?? []), flowCookie ?? ""],
  });
  return { res, back, flowCookie: flowCookie ?? "" };
}

async function me(session: string | undefined) {
  const res = await call("/api/me", { cookies: session ? [session] : [] });
  return res.status === 200 ? ((await res.json()) as { user: User }).user : undefined;
}

async function signIn(mode: TinyMode, subject: string, opts: Options & { query?: string } = {}) {
  const { res } = await flow(mode, subject, opts);
  expect(res.status).toBe(302);
  const session = cookieFrom(res, "oracle_session");
  return { res, session, user: await me(session) };
}

const refusedWith = (res: Response, page: string, code: string) => {
  expect(res.status).toBe(302);
  expect(location(res).pathname + location(res).search).toBe(`${page}?error=${code}`);
  expect(cookieFrom(res, "oracle_session")).toBeUndefined();
};

describe("identity providers: signing in", () => {
  it("lists the configured providers by id and name only, and none when none is configured", async () => {
    const res = await call("/api/auth/oidc/providers");
    const list = OidcProvidersSchema.parse(await res.json());
    expect(list.map((p) => p.id)).toEqual([...TINY_MODES]);
    expect(list[1]).toEqual({ id: "forged", name: "Forged" });
    expect(JSON.stringify(list)).not.toContain(TINY_CLIENT.secret);
    const none = await call("/api/auth/oidc/providers", { vars: { OIDC_PROVIDERS: "" } });
    expect(await none.json()).toEqual([]);
  });

  it("a first sign-in makes an account, without a password, and the next one signs the same account in", async () => {
    const subject = uniqueName("sub");
    const start = await call("/api/auth/oidc/good/start");
    const authorize = location(start);
    expect(authorize.origin + authorize.pathname).toBe(`${issuers}/good/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      client_id: TINY_CLIENT.id,
      redirect_uri: `${ORIGIN}/api/auth/oidc/good/callback`,
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    for (const p of ["state", "nonce", "code_challenge"]) expect(authorize.searchParams.get(p)).toMatch(/^.{32,}$/);

    const first = await signIn("good", subject);
    expect(location(first.res).pathname).toBe("/");
    expect(first.user?.username).toBe(subject);
    const db = await userDb(first.user?.id ?? "");
    const row = await db
      .prepare("SELECT password_hash FROM users WHERE id = ?")
      .bind(first.user?.id)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toBe("");
    // The subject is the account's in the directory, whichever shard the account is in.
    const listed = await env.DIRECTORY.prepare(
      "SELECT user_id FROM directory_identities WHERE provider = 'good' AND subject = ?",
    )
      .bind(subject)
      .first<{ user_id: string }>();
    expect(listed?.user_id).toBe(first.user?.id);
    const again = await signIn("good", subject);
    expect(again.user?.id).toBe(first.user?.id);
    const methods = await db.prepare("SELECT method FROM sessions WHERE user_id = ?").bind(first.user?.id).all();
    expect(methods.results).toEqual([{ method: "oidc:good" }, { method: "oidc:good" }]);
  });

  it("refuses an ID token signed with another key, for another audience or issuer, expired, with another nonce, or unsigned", async () => {
    for (const mode of ["forged", "wrong_aud", "wrong_iss", "expired", "wrong_nonce", "alg_none"] as const) {
      const subject = uniqueName(`sub_${mode}`);
      const { res } = await flow(mode, subject);
      refusedWith(res, "/login", "oidc_failed");
      // Linked nowhere: in no shard, nor in the directory.
      for (const shard of SHARDS) {
        const linked = await shard.prepare("SELECT 1 FROM linked_identities WHERE subject = ?").bind(subject).first();
        expect(linked, mode).toBeNull();
      }
      const listed = await env.DIRECTORY.prepare("SELECT 1 FROM directory_identities WHERE subject = ?")
        .bind(subject)
        .first();
      expect(listed, mode).toBeNull();
    }
  });

  it("reads the email and username at UserInfo when the ID token leaves them out, and refuses another subject's there", async () => {
    const subject = uniqueName("sub");
    const { user } = await signIn("userinfo", subject);
    expect(user?.username).toBe(subject);
    const db = await userDb(user?.id ?? "");
    const row = await db
      .prepare("SELECT label FROM linked_identities WHERE provider = 'userinfo' AND subject = ?")
      .bind(subject)
      .first<{ label: string }>();
    expect(row?.label).toBe(`${subject.replaceAll("_", "")}@example.test`);
    refusedWith((await flow("userinfo_other", uniqueName("sub"))).res, "/login", "oidc_failed");
  });

  it("a callback is good once, in the browser that started it, for its provider; a forged state does nothing", async () => {
    const { res, back, flowCookie } = await flow("good", uniqueName("sub"));
    expect(cookieFrom(res, "oracle_session")).toBeDefined();
    // Replayed: the state was taken.
    refusedWith(await call(back.pathname + back.search, { cookies: [flowCookie] }), "/login", "oidc_state");

    // Someone's callback opened in another browser (without the flow's cookie): refused.
    const start = await call("/api/auth/oidc/good/start");
    const stolen = await atProvider(location(start), uniqueName("victim"));
    refusedWith(await call(stolen.pathname + stolen.search), "/login", "oidc_state");

    // A tampered state, or a state carried to another provider's callback.
    const start2 = await call("/api/auth/oidc/good/start");
    const cookie2 = cookieFrom(start2, "oracle_oidc") ?? "";
    const back2 = await atProvider(location(start2), uniqueName("sub"));
    const tampered = new URL(back2);
    tampered.searchParams.set("state", `${tampered.searchParams.get("state")}x`);
    refusedWith(await call(tampered.pathname + tampered.search, { cookies: [cookie2] }), "/login", "oidc_state");
    refusedWith(
      await call(`/api/auth/oidc/forged/callback${back2.search}`, { cookies: [cookie2] }),
      "/login",
      "oidc_state",
    );
  });

  it("a sign-in cancelled at the provider says so", async () => {
    const start = await call("/api/auth/oidc/good/start");
    const cookie = cookieFrom(start, "oracle_oidc") ?? "";
    const state = location(start).searchParams.get("state") ?? "";
    const res = await call(`/api/auth/oidc/good/callback?error=access_denied&state=${state}`, { cookies: [cookie] });
    refusedWith(res, "/login", "oidc_denied");
  });

  it("lands on `next` only when it is a path of this app", async () => {
    const ok = await signIn("good", uniqueName("sub"), { query: "?next=/settings/account%3Fa%3D1" });
    expect(location(ok.res).pathname + location(ok.res).search).toBe("/settings/account?a=1");
    for (const next of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const { res } = await signIn("good", uniqueName("sub"), { query: `?next=${encodeURIComponent(next)}` });
      expect(res.headers.get("Location"), next).toBe("/");
    }
  });

  it("unknown providers are named as such", async () => {
    refusedWith(await call("/api/auth/oidc/nobody/start"), "/login", "oidc_unknown_provider");
  });
});

describe("identity providers: accounts", () => {
  it("makes usernames free and plain, never one of ADMINS, and never an admin", async () => {
    const tag = uniqueName("x").replaceAll("_", "");
    const taken = await signIn("good", `Jöhn.Doe ${tag}`);
    expect(taken.user?.username).toBe(`john_doe_${tag}`);
    const second = await signIn("good", `john doe ${tag}`);
    expect(second.user?.username).toBe(`john_doe_${tag}_2`);
    const boss = `boss_${tag}`;
    const notAdmin = await signIn("good", boss, { vars: { ADMINS: boss } });
    expect(notAdmin.user).toMatchObject({ username: `${boss}_2` });
    expect(notAdmin.user).not.toHaveProperty("admin");
  });

  it("holds the sign-up policy: closed and invite refuse a first sign-in, approval makes it wait; a linked identity still signs in", async () => {
    await signup(); // the installation is not empty, so no first-account exception applies
    const linked = await signIn("good", uniqueName("sub"));
    const closed = { SIGNUP: "closed", ADMINS: "someone_else" };
    refusedWith((await flow("good", uniqueName("sub"), { vars: closed })).res, "/login", "signup_closed");
    const invite = { SIGNUP: "invite", ADMINS: "someone_else" };
    refusedWith((await flow("good", uniqueName("sub"), { vars: invite })).res, "/login", "signup_invite");
    const pending = await signIn("good", uniqueName("sub"), { vars: { SIGNUP: "approval", ADMINS: "someone_else" } });
    expect(pending.user).toMatchObject({ status: "pending" });
    const again = await signIn("good", linked.user?.username ?? "", { vars: closed });
    expect(again.user?.id).toBe(linked.user?.id);
  });

  it("refuses a disabled account", async () => {
    const subject = uniqueName("sub");
    const { user } = await signIn("good", subject);
    const db = await userDb(user?.id ?? "");
    await db.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(user?.id).run();
    refusedWith((await flow("good", subject)).res, "/login", "account_disabled");
  });
});

describe("identity providers: linking and unlinking", () => {
  async function identities(cookie: string): Promise<AccountIdentities> {
    const res = await call("/api/account/identities", { cookies: [cookie] });
    expect(res.status).toBe(200);
    return res.json();
  }

  it("a signed-in user links a provider, in the session that asked, and then signs in with it", async () => {
    const s = await signup();
    const subject = uniqueName("sub");
    const linking = await flow("good", subject, { cookies: [s.cookie], query: "?link=1" });
    expect(linking.res.headers.get("Location")).toBe("/settings/account?linked=good");
    const list = await identities(s.cookie);
    expect(list.available.map((p) => p.id)).toEqual([...TINY_MODES]);
    expect(list.linked).toEqual([
      {
        provider: "good",
        name: "Good",
        label: expect.stringContaining("@example.test"),
        created_at: expect.any(String),
        last_used_at: null,
      },
    ]);
    const signedIn = await signIn("good", subject);
    expect(signedIn.user?.id).toBe(s.user.id);

    // A second account of the same provider, or one linked to someone else: refused in words.
    const other = await flow("good", uniqueName("sub"), { cookies: [s.cookie], query: "?link=1" });
    refusedWith(other.res, "/settings/account", "oidc_already_linked");
    const t = await signup();
    const elsewhere = await flow("good", subject, { cookies: [t.cookie], query: "?link=1" });
    refusedWith(elsewhere.res, "/settings/account", "oidc_linked_elsewhere");
  });

  it("a link's callback in another session, or signed out, is refused; starting one signed out goes to sign in", async () => {
    const s = await signup();
    const start = await call("/api/auth/oidc/good/start?link=1", { cookies: [s.cookie] });
    const cookie = cookieFrom(start, "oracle_oidc") ?? "";
    const back = await atProvider(location(start), uniqueName("sub"));
    const t = await signup();
    refusedWith(
      await call(back.pathname + back.search, { cookies: [cookie, t.cookie] }),
      "/settings/account",
      "oidc_link_session",
    );
    expect((await identities(s.cookie)).linked).toEqual([]);
    refusedWith(await call("/api/auth/oidc/good/start?link=1"), "/login", "oidc_link_session");
  });

  it("unlinking the last way in is refused; with a password left it goes", async () => {
    const only = await signIn("good", uniqueName("sub"));
    const cookie = only.session ?? "";
    const init = { method: "DELETE", headers: { Origin: ORIGIN } };
    const refused = await call("/api/account/identities/good", { cookies: [cookie], init });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: "last_sign_in_method" } });
    expect((await identities(cookie)).linked).toHaveLength(1);

    const s = await signup();
    await flow("good", uniqueName("sub"), { cookies: [s.cookie], query: "?link=1" });
    const gone = await call("/api/account/identities/good", { cookies: [s.cookie], init });
    expect(gone.status).toBe(204);
    expect((await identities(s.cookie)).linked).toEqual([]);
    const again = await call("/api/account/identities/good", { cookies: [s.cookie], init });
    expect(again.status).toBe(404);
  });
});
