// The upgrade of an installation made before shards (README "Upgrading a single-database installation"):
// the database the app of commit 7e59357 filled (test/fixtures/pre-shard/) is loaded into an empty local
// shard 0 with its conversations' objects beside it, `npm run upgrade-to-shards -- --local` runs on it,
// and the app of today starts on the result. Then, as its users would: both sign in with their passwords
// (bob with his passkey too), find their notes, tasks, settings and conversations, and go on chatting;
// the sessions, the API token and the share link made before shards still work; the first account is
// still the admin and sees both accounts, the invite and the audit log; a new account sees nothing of
// theirs and cannot take their names. Last, the upgrade run again finds everything there and changes nothing.
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64Url } from "../../core/base64";
import { type CommandResult, runCommand } from "../support/run-command.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.ts";
import { openSocket } from "./api-client.ts";
import { appAndBrowserForFile, ROOT, withPage } from "./harness.ts";

const FIXTURE = path.join(ROOT, "test/fixtures/pre-shard");
const fixture = JSON.parse(readFileSync(path.join(FIXTURE, "fixture.json"), "utf8")) as Fixture;
const { alice, bob } = fixture.users;
const WRANGLER = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
const env = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" };

/** The state the upgrade works on and the app then runs on (removed when the app stops, after the file). */
const state = mkdtempSync(path.join(tmpdir(), "oracle-e2e-upgrade-"));

async function wrangler(args: string[]): Promise<string> {
  const run = await runCommand(process.execPath, [WRANGLER, ...args, "--local", "--persist-to", state], {
    cwd: ROOT,
    env,
  });
  if (run.status !== 0) throw new Error(`wrangler ${args.join(" ")}: ${run.error ?? run.status}\n${run.output}`);
  return run.output;
}

/** `npm run upgrade-to-shards -- --local --persist-to <state>`, as an operator runs it. */
const upgrade = (): Promise<CommandResult> =>
  runCommand(process.execPath, ["scripts/upgrade-to-shards.ts", "--local", "--persist-to", state], {
    cwd: ROOT,
    env,
    timeoutMs: 170_000,
  });

/** Every row of the directory's tables and of shard 0's accounts, to compare before and after a run. */
async function contents(): Promise<unknown> {
  const tables = ["directory_users", "directory_passkeys", "directory_identities", "directory_admins", "invites"];
  const read = async (binding: string, sql: string[]) => {
    const out = await runCommand(
      process.execPath,
      [WRANGLER, "d1", "execute", binding, "--local", "--persist-to", state, "--json", "--command", sql.join(";")],
      { cwd: ROOT, env },
    );
    const answers = JSON.parse(out.output.slice(out.output.indexOf("["))) as { results: unknown[] }[];
    return answers.map((a) => a.results);
  };
  return {
    directory: await read("DIRECTORY", [
      ...tables.map((t) => `SELECT * FROM ${t} ORDER BY 1, 2`),
      "SELECT * FROM admin_audit ORDER BY id",
    ]),
    shard0: await read("DB", ["SELECT id, username, role, status FROM users ORDER BY id"]),
  };
}

let firstRun: CommandResult;
beforeAll(async () => {
  // An empty local shard 0 gets the old database; the objects' storage is kept by a deploy as it is.
  await wrangler(["d1", "execute", "DB", "--file", path.join(FIXTURE, "d1.sql")]);
  cpSync(path.join(FIXTURE, "do"), path.join(state, "v3/do"), { recursive: true });
  firstRun = await upgrade();
  if (firstRun.status !== 0) throw new Error(`the upgrade failed (${firstRun.status}):\n${firstRun.output}`);
}, 240_000);

// After the upgrade's beforeAll (hooks run in the order they are declared); it stops the app and removes
// the state after the file.
const live = appAndBrowserForFile({ persistTo: state });

// ---- What a user does over HTTP ----------------------------------------------------------------------

interface Session {
  cookie: string;
  get<T = Record<string, unknown>>(route: string): Promise<{ status: number; body: T }>;
}

function session(cookie: string): Session {
  return {
    cookie,
    async get<T>(route: string) {
      const res = await fetch(`${live.app.url}${route}`, { headers: { cookie } });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
  };
}

async function post(route: string, body: unknown, cookie = ""): Promise<Response> {
  return fetch(`${live.app.url}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: live.app.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

async function signIn(user: { username: string; password: string }): Promise<Session> {
  const res = await post("/api/auth/login", { username: user.username, password: user.password });
  expect(res.status, await res.clone().text()).toBe(200);
  return session(cookieOf(res));
}

/** What one of the fixture's users finds of their own, signed in. */
async function expectTheirData(who: "alice" | "bob", me: Session) {
  const user = fixture.users[who];
  const { body: account } = await me.get<{ user: { id: string; username: string; admin?: boolean } }>("/api/me");
  expect(account.user).toMatchObject({ id: user.id, username: user.username });
  expect(account.user.admin ?? false).toBe(user.admin);

  const { body: notes } = await me.get<{ notes: { path: string }[] }>("/api/notes");
  expect(notes.notes.map((n) => n.path).sort()).toEqual(fixture.notes[who].map((n) => n.path).sort());
  for (const note of fixture.notes[who]) {
    const { body } = await me.get<{ content: string }>(`/api/notes/${note.path}`);
    expect(body.content).toBe(note.content);
  }

  const { body: tasks } = await me.get<{ tasks: { title: string; status: string }[] }>("/api/tasks");
  const titles = (status: string) =>
    tasks.tasks
      .filter((t) => t.status === status)
      .map((t) => t.title)
      .sort();
  expect(titles("open")).toEqual([...fixture.tasks[who].open].sort());
  expect(titles("done")).toEqual([...(fixture.tasks[who].done ?? [])].sort());

  const { body: settings } = await me.get("/api/settings/agent");
  expect(settings).toMatchObject(fixture.settings[who]);

  const { body: list } = await me.get<{ id: string; title: string }[]>("/api/conversations");
  const old = fixture.conversations[who];
  expect(list.map((c) => ({ id: c.id, title: c.title }))).toEqual(old.map((c) => ({ id: c.id, title: c.title })));
  // The transcript is the conversation's object's, as it was.
  const { body: transcript } = await me.get<{ messages: { role: string; content?: string }[] }>(
    `/api/conversations/${old[0]?.id}/messages`,
  );
  expect(transcript.messages.find((m) => m.role === "user")?.content).toBe(old[0]?.first_message);
  // Search reads the index shard 0 kept.
  const { body: found } = await me.get<{ results: { conversation_id: string }[] }>(
    `/api/search?q=${encodeURIComponent(old[0]?.search_word ?? "")}`,
  );
  expect(found.results.map((r) => r.conversation_id)).toContain(old[0]?.id);
}

describe("an installation upgraded to shards", () => {
  it("the command says in words what it copied into the directory", () => {
    const out = firstRun.output;
    expect(out).toContain("accounts: 2 in shard 0, 2 added to the directory");
    expect(out).toContain("passkeys: 1 in shard 0, 1 added to the directory");
    expect(out).toContain("active admins: 1 in shard 0, 1 added to the directory");
    expect(out).toContain("invites: 1 in shard 0, 1 added to the directory");
    expect(out).toContain("audit log entries: 1 in shard 0, 1 added to the directory");
    expect(out).toContain("Done: shard 0's accounts are in the directory");
  });

  it("both users sign in with their passwords and find their notes, tasks, settings and conversations", async () => {
    await expectTheirData("alice", await signIn(alice));
    await expectTheirData("bob", await signIn(bob));
  });

  it("the sessions and the API token made before shards still work", async () => {
    for (const who of ["alice", "bob"] as const) {
      const { status, body } = await session(fixture.users[who].session_cookie).get<{ user: { id: string } }>(
        "/api/me",
      );
      expect(status).toBe(200);
      expect(body.user.id).toBe(fixture.users[who].id);
    }
    const res = await fetch(`${live.app.url}/api/notes`, {
      headers: { authorization: `Bearer ${fixture.api_token.token}` },
    });
    expect(res.status).toBe(200);
    const { notes } = (await res.json()) as { notes: { path: string }[] };
    expect(notes.map((n) => n.path)).toEqual(fixture.notes.bob.map((n) => n.path));
  });

  it("bob's passkey made before shards signs him in", async () => {
    const { passkey } = fixture;
    const authenticator = new SoftAuthenticator();
    const algorithm = { name: "ECDSA", namedCurve: "P-256" };
    authenticator.credentials.push({
      id: fromBase64Url(passkey.id),
      rpId: passkey.rp_id,
      userHandle: passkey.user_handle,
      counter: 0,
      keys: {
        privateKey: await crypto.subtle.importKey("jwk", passkey.private_key, algorithm, true, ["sign"]),
        publicKey: await crypto.subtle.importKey("jwk", passkey.public_key, algorithm, true, ["verify"]),
      },
    });
    const options = (await (await post("/api/auth/passkey/signin-options", {})).json()) as {
      challenge_id: string;
      options: Record<string, unknown>;
    };
    const response = await authenticator.get(options.options, live.app.url);
    const res = await post("/api/auth/passkey/signin", { challenge_id: options.challenge_id, response });
    expect(res.status, await res.clone().text()).toBe(200);
    const { body } = await session(cookieOf(res)).get<{ user: { id: string } }>("/api/me");
    expect(body.user.id).toBe(bob.id);
  });

  it("the share link made before shards still opens, signed out, in a browser", async () => {
    const { status, body } = await session("").get<{ share: { title: string }; messages: unknown[] }>(
      `/api/shared/${fixture.share.id}`,
    );
    expect(status).toBe(200);
    expect(body.share.title).toBe(fixture.share.title);
    expect(body.messages.length).toBeGreaterThan(0);
    await withPage(live, "upgrade-share", {}, async (page) => {
      await page.goto(fixture.share.url);
      await page.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=shared-title]").textContent()).toBe(fixture.share.title);
    });
  });

  it("alice signs in on the sign-in page and goes on with her conversation where it was", async () => {
    const [conversation] = fixture.conversations.alice;
    if (!conversation) throw new Error("the fixture has no conversation of alice's");
    await withPage(live, "upgrade-sign-in", {}, async (page) => {
      await page.goto("/login");
      await page.locator("[data-testid=auth-username]").fill(alice.username);
      await page.locator("[data-testid=auth-password]").fill(alice.password);
      await page.locator("[data-testid=auth-submit]").click();
      await page.locator(`[data-testid=shell][data-user=${JSON.stringify(alice.username)}]`).waitFor();
      const row = page.locator(`[data-testid=conversation-item][data-id=${JSON.stringify(conversation.id)}]`);
      await row.waitFor({ timeout: 15_000 });
      expect(await row.textContent()).toContain(conversation.title);
      await row.click();
      await page.locator(`[data-testid=message-list] [data-role=user]`).first().waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=message-list]").textContent()).toContain(conversation.first_message);
    });
    // A new turn in the old conversation: its object writes the index to its owner's shard, 0.
    const me = await signIn(alice);
    const socket = await openSocket(
      { origin: live.app.url, headers: { cookie: me.cookie, origin: live.app.url } },
      conversation.id,
    );
    socket.send({ type: "chat", content: "And how often should I feed the zymology jar?" });
    await socket.until((f) => f.type === "response_complete", { timeoutMs: 30_000 });
    socket.ws.close();
    await expect
      .poll(
        async () =>
          (await me.get<{ results: { conversation_id: string }[] }>("/api/search?q=zymology")).body.results.map(
            (r) => r.conversation_id,
          ),
        { timeout: 10_000 },
      )
      .toContain(conversation.id);
  });

  it("the first account is still the admin: both accounts in its list, the invite and the audit log", async () => {
    const admin = await signIn(alice);
    const { status, body } = await admin.get<{ users: { username: string; role: string }[]; total: number }>(
      "/api/admin/users",
    );
    expect(status).toBe(200);
    const byName = new Map(body.users.map((u) => [u.username, u.role]));
    expect(byName.get(alice.username)).toBe("admin");
    expect(byName.get(bob.username)).toBe("user");
    const { body: invites } = await admin.get<{ invites: { note: string; created_by: string }[] }>(
      "/api/admin/invites",
    );
    expect(invites.invites).toContainEqual(
      expect.objectContaining({ note: fixture.invite.note, created_by: alice.username }),
    );
    const { body: audit } = await admin.get<{ entries: { action: string; actor: string }[] }>("/api/admin/audit");
    expect(audit.entries).toContainEqual(expect.objectContaining({ action: "create_invite", actor: alice.username }));
    // Bob is no admin: the admin surface is a 404 to him.
    expect((await (await signIn(bob)).get("/api/admin/users")).status).toBe(404);
  });

  it("a new account signs up, sees nothing of the old users' and cannot take their names", async () => {
    for (const taken of [alice.username, bob.username]) {
      const res = await post("/api/auth/signup", { username: taken, password: "a new long password" });
      expect(res.status).toBe(409);
    }
    const res = await post("/api/auth/signup", { username: "carol_new", password: "carol's long password" });
    expect(res.status, await res.clone().text()).toBe(201);
    const carol = session(cookieOf(res));
    expect((await carol.get<{ user: { admin?: boolean } }>("/api/me")).body.user.admin).toBeUndefined();
    expect((await carol.get<{ notes: unknown[] }>("/api/notes")).body.notes).toEqual([]);
    expect((await carol.get<{ tasks: unknown[] }>("/api/tasks")).body.tasks).toEqual([]);
    expect((await carol.get<unknown[]>("/api/conversations")).body).toEqual([]);
    expect((await carol.get<{ results: unknown[] }>("/api/search?q=sourdough")).body.results).toEqual([]);
    expect((await carol.get(`/api/notes/${fixture.notes.alice[0]?.path}`)).status).toBe(404);
    expect((await carol.get(`/api/conversations/${fixture.conversations.bob[0]?.id}`)).status).toBe(404);
    expect((await carol.get(`/api/conversations/${fixture.conversations.bob[0]?.id}/messages`)).status).toBe(404);
  });

  it("the upgrade run again, after the app has run, adds nothing and changes nothing", async () => {
    await live.app.stop({ keepState: true });
    const before = await contents();
    const again = await upgrade();
    expect(again.status, again.output).toBe(0);
    // The new account is in shard 0 or 1 (at random), in the directory either way.
    expect(again.output).toMatch(/accounts: (\d+) in shard 0, 0 added to the directory, \1 were there already/);
    expect(again.output).toContain("Nothing to add: the directory already had everything of shard 0");
    expect(await contents()).toEqual(before);
  }, 240_000);
});

interface Fixture {
  users: Record<
    "alice" | "bob",
    { username: string; password: string; id: string; admin: boolean; session_cookie: string }
  >;
  notes: Record<"alice" | "bob", { path: string; content: string }[]>;
  tasks: Record<"alice" | "bob", { open: string[]; done?: string[] }>;
  settings: Record<"alice" | "bob", Record<string, unknown>>;
  conversations: Record<"alice" | "bob", { id: string; title: string; first_message: string; search_word: string }[]>;
  share: { id: string; url: string; title: string };
  api_token: { token: string };
  invite: { note: string };
  passkey: {
    id: string;
    rp_id: string;
    user_handle: string;
    private_key: JsonWebKey;
    public_key: JsonWebKey;
  };
}
