// Web push subscriptions over HTTP (docs/protocol.md "Finish notifications"): offered only with the
// operator's VAPID keys, own only, one browser's endpoint belonging to one user at a time, the outbound
// policy on the endpoint, the cap, and a subscription going with the session that saved it (sign-out).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_PUSH_SUBSCRIPTIONS, type PushSettings, type PushSubscription } from "../../protocol/push";
import { app } from "../../worker/app";
import { ORIGIN, type Session, signup, usersOnTwoShards } from "./helpers";

// A key pair for this test only (scripts/vapid-keys.ts).
const VAPID: Partial<Env> = {
  VAPID_PUBLIC_KEY: "BBnkrBzeWTfAw2gPxvS85nxyVEGIV0OiqKPugYsPfN-QQEi52wS_Lqnw9qJincVcuAqUsqa3hnqi0u_qyKDR_58",
  VAPID_PRIVATE_KEY: "fdLt7DgdUMfXPIJod4FJQKHIhMK9Kds1TKVeA6WHTXE",
  VAPID_SUBJECT: "mailto:ops@example.com",
};
const KEYS = { p256dh: `B${"Q".repeat(86)}`, auth: "A".repeat(22) };

/** The Worker with (or, `vapid: false`, without) push set up. */
function call(s: Session, method: string, path: string, json?: unknown, vapid = true) {
  const headers = new Headers(s.headers);
  if (json !== undefined) headers.set("Content-Type", "application/json");
  const body = json === undefined ? undefined : JSON.stringify(json);
  return app.request(`${ORIGIN}${path}`, { method, headers, body }, { ...env, ...(vapid ? VAPID : {}) });
}

const save = (s: Session, endpoint: string, show_content = false) =>
  call(s, "POST", "/api/push/subscriptions", { endpoint, keys: KEYS, show_content });
const listed = async (s: Session) => ((await (await call(s, "GET", "/api/push")).json()) as PushSettings).subscriptions;

describe("push subscriptions", () => {
  it("are offered only where the operator set the VAPID keys", async () => {
    const s = await signup();
    const off = (await (await call(s, "GET", "/api/push", undefined, false)).json()) as PushSettings;
    expect(off.public_key).toBeNull();
    expect(
      (await call(s, "POST", "/api/push/subscriptions", { endpoint: "https://p.example/x", keys: KEYS }, false)).status,
    ).toBe(409);
    const on = (await (await call(s, "GET", "/api/push")).json()) as PushSettings;
    expect(on.public_key).toBe(VAPID.VAPID_PUBLIC_KEY);
  });

  it("are the user's own; a browser's endpoint saved again moves to whoever saved it", async () => {
    const [a, b] = [await signup(), await signup()];
    const created = await save(a, "https://push.example.net/a");
    expect(created.status).toBe(201);
    const sub = (await created.json()) as PushSubscription;
    expect(sub).toMatchObject({ endpoint: "https://push.example.net/a", show_content: false });
    // Again from the same browser: the same subscription, its choice replaced.
    const again = await save(a, "https://push.example.net/a", true);
    expect(again.status).toBe(200);
    expect(((await again.json()) as PushSubscription).id).toBe(sub.id);

    // Another user can neither see, change nor delete it.
    expect(await listed(b)).toEqual([]);
    expect((await call(b, "PATCH", `/api/push/subscriptions/${sub.id}`, { show_content: false })).status).toBe(404);
    expect((await call(b, "DELETE", `/api/push/subscriptions/${sub.id}`)).status).toBe(404);
    expect((await listed(a)).map((s) => s.show_content)).toEqual([true]);

    // b signs in on that browser and turns push on: it is b's now, and a's answers no longer go there.
    expect((await save(b, "https://push.example.net/a")).status).toBe(200);
    expect(await listed(a)).toEqual([]);
    expect((await listed(b)).map((s) => s.endpoint)).toEqual(["https://push.example.net/a"]);

    const patched = await call(b, "PATCH", `/api/push/subscriptions/${sub.id}`, { show_content: true });
    expect(((await patched.json()) as PushSubscription).show_content).toBe(true);
    expect((await call(b, "DELETE", `/api/push/subscriptions/${sub.id}`)).status).toBe(204);
    expect(await listed(b)).toEqual([]);
  });

  it("a browser's endpoint moves to whoever saved it last across shards too, keeping its id", async () => {
    const [a, b] = await usersOnTwoShards();
    const created = await save(a, "https://push.example.net/shared-browser");
    expect(created.status).toBe(201);
    const sub = (await created.json()) as PushSubscription;
    const moved = await save(b, "https://push.example.net/shared-browser");
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as PushSubscription).id).toBe(sub.id);
    expect(await listed(a)).toEqual([]);
    expect((await listed(b)).map((s) => s.endpoint)).toEqual(["https://push.example.net/shared-browser"]);
    // And back: a's browser again, a's again.
    expect((await save(a, "https://push.example.net/shared-browser")).status).toBe(200);
    expect(await listed(b)).toEqual([]);
  });

  it("refuse an endpoint the Worker may not fetch, keys of the wrong shape, and more than the cap", async () => {
    const s = await signup();
    for (const endpoint of [
      "http://push.example.net/x",
      "https://10.0.0.1/x",
      "https://push.internal/x",
      "not a url",
    ]) {
      const res = await save(s, endpoint);
      expect(res.status, endpoint).toBe(400);
      expect(Object.keys(((await res.json()) as { error: { fields: object } }).error.fields)).toEqual(["endpoint"]);
    }
    const bad = await call(s, "POST", "/api/push/subscriptions", {
      endpoint: "https://push.example.net/k",
      keys: { ...KEYS, auth: "short" },
    });
    expect(bad.status).toBe(400);
    for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS; i++)
      expect((await save(s, `https://push.example.net/${i}`)).status).toBe(201);
    expect((await save(s, "https://push.example.net/one-more")).status).toBe(409);
    // Saving one of them again is not one more.
    expect((await save(s, "https://push.example.net/3")).status).toBe(200);
  });

  it("go with the session that saved them: signing out on that device stops them", async () => {
    const s = await signup();
    expect((await save(s, "https://push.example.net/out")).status).toBe(201);
    const out = await app.request(`${ORIGIN}/api/auth/logout`, { method: "POST", headers: s.headers }, env);
    expect(out.status).toBe(204);
    const rows = await s.db
      .prepare("SELECT count(*) AS n FROM push_subscriptions WHERE user_id = ?")
      .bind(s.user.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
