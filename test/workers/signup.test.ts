// Who may sign up (docs/protocol.md "Administration"): the per-address limit under a burst, and each SIGNUP
// policy refusing and admitting as it says, against the real Worker with the policy's variables.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { SHARDS } from "./apply-migrations";
import { api, ORIGIN, signup, uniqueName } from "./helpers";

type Vars = Partial<Pick<Env, "SIGNUP" | "SIGNUP_PER_HOUR" | "ADMINS">>;

/** The Worker's fetch as the runtime calls it. */
const fetchWith = (request: Request, vars: Partial<Env>): Promise<Response> =>
  Promise.resolve(
    worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, createExecutionContext()),
  );

/** The Worker as deployed with these variables. */
function call(vars: Vars, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Origin", ORIGIN);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const request = new Request(`${ORIGIN}${path}`, { ...init, headers, body });
  return fetchWith(request, { SIGNUP: "open", SIGNUP_PER_HOUR: "0", ...vars });
}

const signUp = (vars: Vars, json: Record<string, unknown>, address = "203.0.113.7") =>
  call(vars, "/api/auth/signup", { method: "POST", json, headers: { "CF-Connecting-IP": address } });

const credentials = (invite?: string) => ({
  username: uniqueName("s"),
  password: "correct horse battery",
  ...(invite ? { invite } : {}),
});

/** The accounts in every shard. */
async function userCount(): Promise<number> {
  const counts = await Promise.all(
    SHARDS.map(
      async (shard) => (await shard.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>())?.n ?? 0,
    ),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

async function admin() {
  const session = await signup();
  await session.db.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(session.user.id).run();
  return session;
}

describe("sign-up limits per address", () => {
  it("holds a parallel burst from one address at the limit, counting an IPv6 client by its /64", async () => {
    const vars = { SIGNUP_PER_HOUR: "5" };
    const before = await userCount();
    const burst = await Promise.all(Array.from({ length: 30 }, () => signUp(vars, credentials(), "198.51.100.9")));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    const refused = burst.find((r) => r.status === 429);
    expect(Number(refused?.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused?.json()).toMatchObject({ error: { code: "rate_limited" } });
    expect(await userCount()).toBe(before + 5);
    // Addresses in one /64 are one client; the next /64 is another.
    const net = "2001:db8:aa:1";
    const six = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signUp(vars, credentials(), `${net}::${(i + 1).toString(16)}`)),
    );
    expect(six.filter((r) => r.status === 201)).toHaveLength(5);
    expect((await signUp(vars, credentials(), "2001:db8:aa:2::1")).status).toBe(201);
  });
});

describe("SIGNUP policies", () => {
  it("closed refuses everyone but a username listed in ADMINS, who signs up as an admin", async () => {
    const before = await userCount();
    const refused = await signUp({ SIGNUP: "closed" }, credentials());
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "signup_closed" } });
    expect(await userCount()).toBe(before);
    const boss = credentials();
    const listed = await signUp({ SIGNUP: "closed", ADMINS: `someone, ${boss.username}` }, boss);
    expect(listed.status).toBe(201);
    expect(await listed.json()).toMatchObject({ user: { username: boss.username, admin: true } });
  });

  it("invite admits one account per link, never an expired or reused one", async () => {
    const vars = { SIGNUP: "invite" };
    const noLink = await signUp(vars, credentials());
    expect(noLink.status).toBe(403);
    expect(await noLink.json()).toMatchObject({ error: { code: "signup_closed" } });
    const boss = await admin();
    const made = await api("/api/admin/invites", { method: "POST", json: { note: "for Ada" }, headers: boss.headers });
    expect(made.status).toBe(201);
    const invite = (await made.json()) as { token: string; url: string; id: string };
    expect(invite.url).toBe(`/signup?invite=${invite.token}`);
    // Two sign-ups with the same link at once: one account.
    const both = await Promise.all([signUp(vars, credentials(invite.token)), signUp(vars, credentials(invite.token))]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 403]);
    const again = await signUp(vars, credentials(invite.token));
    expect(await again.json()).toMatchObject({
      error: { code: "signup_closed", message: expect.stringMatching(/used/) },
    });
    const listed = (await (await api("/api/admin/invites", { headers: boss.headers })).json()) as {
      invites: { id: string; used_by: string | null; note: string }[];
    };
    expect(listed.invites.find((i) => i.id === invite.id)).toMatchObject({
      note: "for Ada",
      used_by: expect.any(String),
    });
    // An expired link admits nobody.
    const old = (await (
      await api("/api/admin/invites", { method: "POST", json: { expires_in_hours: 1 }, headers: boss.headers })
    ).json()) as { id: string; token: string };
    await env.DIRECTORY.prepare("UPDATE invites SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(old.id)
      .run();
    expect((await signUp(vars, credentials(old.token))).status).toBe(403);
  });

  it("approval makes an account that can do nothing but wait until an admin approves it", async () => {
    const vars = { SIGNUP: "approval" };
    const res = await signUp(vars, credentials());
    expect(res.status).toBe(201);
    const { user } = (await res.json()) as { user: { id: string; status?: string } };
    expect(user.status).toBe("pending");
    const headers = { Cookie: (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "", Origin: ORIGIN };
    expect(await (await call(vars, "/api/me", { headers })).json()).toMatchObject({ user: { status: "pending" } });
    const waiting = await call(vars, "/api/conversations", { headers });
    expect(waiting.status).toBe(403);
    expect(await waiting.json()).toMatchObject({
      error: { code: "account_pending", message: "Your account is waiting for an administrator's approval" },
    });
    const boss = await admin();
    expect((await api(`/api/admin/users/${user.id}/approve`, { method: "POST", headers: boss.headers })).status).toBe(
      200,
    );
    expect((await call(vars, "/api/conversations", { headers })).status).toBe(200);
    const me = (await (await call(vars, "/api/me", { headers })).json()) as { user: Record<string, unknown> };
    expect(me.user.status).toBeUndefined();
  });

  it("GET /api/health says which policy holds", async () => {
    const health = (await (await call({ SIGNUP: "invite" }, "/api/health")).json()) as { signup: string };
    expect(health.signup).toBe("invite");
    // Unset, a deployed Worker waits for approval.
    const unset = await fetchWith(new Request(`${ORIGIN}/api/health`), { SIGNUP: undefined });
    expect(((await unset.json()) as { signup: string }).signup).toBe("approval");
    // On this machine (npm start, wrangler dev) it is the open demo.
    const local = await fetchWith(new Request("http://127.0.0.1:8787/api/health"), { SIGNUP: undefined });
    expect(((await local.json()) as { signup: string }).signup).toBe("open");
  });
});
