// Deleting an account inside workerd (docs/protocol.md "Deleting an account"), for what the e2e test
// cannot stage: a deletion cut short after its first step is finished by the request sent again, or by
// the account's next `/api/me`, and meanwhile the account signs in for nothing else; rows that are not
// the account's own but name it (the audit log, invites, rate-limit keys) are rewritten or deleted,
// and a key that only looks alike stays; an object woken by its alarm after its conversation's row went
// erases itself instead of running.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { beginDeletion } from "../../d1/account-deletion";
import { DELETED_USER } from "../../protocol";
import { sha256Hex } from "../../worker/auth/crypto";
import { api, createConversation, eventually, type Session, signup, stubOf } from "./helpers";

const PASSWORD = "correct horse battery";

/** A row of `db`: the account's shard (session.db) or the directory. */
const row = (db: D1Database, sql: string, ...params: unknown[]) =>
  db
    .prepare(sql)
    .bind(...params)
    .first();

const sessionHash = (s: Session) => sha256Hex(s.cookie.slice(s.cookie.indexOf("=") + 1));

const deleteAccount = (s: Session, body: unknown = { username: s.user.username, confirm: { password: PASSWORD } }) =>
  api("/api/account", { method: "DELETE", json: body, headers: s.headers });

/** An account with a conversation whose object holds a log, and a note. */
async function used(): Promise<{ s: Session; conversation: string }> {
  const s = await signup();
  const { id } = await createConversation(s, "Plans");
  const notified = await api(`/api/conversations/${id}/notify`, {
    method: "POST",
    json: { message: "remember the plans" },
    headers: s.headers,
  });
  expect(notified.status).toBe(202);
  await api("/api/notes/plans.md", { method: "PUT", json: { content: "plans" }, headers: s.headers });
  return { s, conversation: id };
}

/** What the conversation's object stores: its keys and its own SQL tables (the log's among them). */
const objectKeys = (conversation: string) =>
  runInDurableObject(stubOf(conversation), async (_instance, state) => [
    ...(await state.storage.list()).keys(),
    ...state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((t) => `table ${t.name}`),
  ]);

describe("a deletion cut short", () => {
  it("signs in for nothing else, and is finished by the request sent again", async () => {
    const { s, conversation } = await used();
    const other = await signup();
    // The Worker died after the first step: the account is marked, the log still there.
    expect(await beginDeletion(s.db, s.user.id, await sessionHash(s))).toBe(true);
    expect((await objectKeys(conversation)).length).toBeGreaterThan(0);
    expect((await api("/api/notes", { headers: s.headers })).status).toBe(401);
    expect(
      (await api(`/api/conversations/${conversation}/ws`, { headers: { ...s.headers, Upgrade: "websocket" } })).status,
    ).toBe(401);
    // Neither a slip nor a wrong password goes through; the right ones finish it.
    expect((await deleteAccount(s, { username: other.user.username, confirm: { password: PASSWORD } })).status).toBe(
      400,
    );
    expect((await deleteAccount(s, { username: s.user.username, confirm: { password: "wrong one" } })).status).toBe(
      403,
    );
    expect((await deleteAccount(s)).status).toBe(204);
    expect(await row(s.db, "SELECT 1 FROM users WHERE id = ?", s.user.id)).toBeNull();
    expect(await row(s.db, "SELECT 1 FROM conversations WHERE id = ?", conversation)).toBeNull();
    expect(await row(env.DIRECTORY, "SELECT 1 FROM directory_users WHERE user_id = ?", s.user.id)).toBeNull();
    expect(await objectKeys(conversation)).toEqual([]);
    expect((await api("/api/notes", { headers: other.headers })).status).toBe(200);
  });

  it("is finished by the account's next /api/me", async () => {
    const { s, conversation } = await used();
    expect(await beginDeletion(s.db, s.user.id, await sessionHash(s))).toBe(true);
    expect((await api("/api/me", { headers: s.headers })).status).toBe(401);
    await eventually(
      () => row(s.db, "SELECT 1 FROM users WHERE id = ?", s.user.id),
      (found) => found === null,
      "the account deleted",
    );
    expect(await objectKeys(conversation)).toEqual([]);
  });
});

describe("rows naming a deleted account", () => {
  it("name it as a deleted user, and keys that only look alike stay", async () => {
    const s = await signup();
    const name = s.user.username;
    const near = `${name}x`;
    // The audit log and invites are the directory's; rate-limit keys naming a user are in their shard.
    await env.DIRECTORY.batch([
      env.DIRECTORY.prepare(
        "INSERT INTO admin_audit (actor, action, target, detail) VALUES (?, 'set_quota', ?, ?)",
      ).bind(name, name, JSON.stringify({ who: name, id: s.user.id })),
      env.DIRECTORY.prepare(
        "INSERT INTO invites (id, token_hash, created_by, expires_at, used_by, used_at) VALUES (?, ?, ?, '2999-01-01', ?, '2000-01-01')",
      ).bind(crypto.randomUUID(), crypto.randomUUID(), s.user.id, s.user.id),
    ]);
    await s.db.batch(
      [`share_create:${s.user.id}`, `sign-in:user:${name}|10.0.0.1`, `sign-in:user:${near}|10.0.0.1`].map((key) =>
        s.db.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)").bind(key, Date.now() + 60_000),
      ),
    );
    expect((await deleteAccount(s)).status).toBe(204);
    const audit = await row(
      env.DIRECTORY,
      "SELECT actor, target, detail FROM admin_audit WHERE actor = ? ORDER BY id DESC",
      DELETED_USER,
    );
    expect(audit).toEqual({
      actor: DELETED_USER,
      target: DELETED_USER,
      detail: JSON.stringify({ who: DELETED_USER, id: DELETED_USER }),
    });
    expect(
      await row(env.DIRECTORY, "SELECT 1 FROM invites WHERE used_by = ? OR created_by = ?", s.user.id, s.user.id),
    ).toBeNull();
    const keys = await s.db.prepare("SELECT key FROM rate_limits WHERE key LIKE ?").bind(`%${name}%`).all();
    expect(keys.results).toEqual([{ key: `sign-in:user:${near}|10.0.0.1` }]);
    expect(await row(s.db, "SELECT 1 FROM rate_limits WHERE key = ?", `share_create:${s.user.id}`)).toBeNull();
  });
});

describe("an object whose conversation is gone", () => {
  it("erases itself when its alarm fires, and runs nothing", async () => {
    const { s, conversation } = await used();
    expect(await objectKeys(conversation)).toContain("table messages");
    await runInDurableObject(stubOf(conversation), (_instance, state) => state.storage.setAlarm(Date.now() + 60_000));
    await s.db.prepare("DELETE FROM conversations WHERE id = ?").bind(conversation).run();
    // A fresh instance, as one woken by its alarm after an eviction: the copy in memory is what an erase drops.
    await runInDurableObject(stubOf(conversation), (instance) => {
      (instance as unknown as { forget(): void }).forget();
    });
    expect(await runDurableObjectAlarm(stubOf(conversation))).toBe(true);
    expect(await objectKeys(conversation)).toEqual([]);
    expect(
      await runInDurableObject(stubOf(conversation), async (_instance, state) => state.storage.getAlarm()),
    ).toBeNull();
  });
});
