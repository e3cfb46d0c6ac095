// Deleting an account (issue 43, "Your account is yours"; docs/protocol.md "Deleting an account"), on an
// app of this file's own (the demo model), which it stops and starts again on the same state:
//   - in the browser, at 1280 and 390 px: Settings → Account → Delete account refuses a mistyped
//     username and a wrong password, then deletes and lands on the sign-in page saying so; the account
//     no longer signs in;
//   - through the API: user A uses every feature (turns with a subagent, a question and an approval
//     left waiting, notes, tasks, the library, settings, a schedule, a share link, MCP servers with a
//     secret and with an OAuth grant, a model provider's key, an API token, a push subscription, a
//     second session) and so does user B; A is deleted. At once: A's share link is 404, A's sockets are
//     closed, A's sessions and token sign nobody in, and the OAuth grant was revoked at its server.
//     Then, with the app stopped, every row of every table of every SQLite file under its state (D1 and
//     each Durable Object, FTS5 indexes' own tables included) is read: none holds A's id, username or
//     words, while B's words are there. The app is started again on that state and left past the time
//     both users' schedules were due: B's runs (so due alarms did fire), and still nothing of A's is
//     anywhere.
import { readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETED_USER } from "../../protocol";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server";
import { startOAuthServer, type TestOAuthServer } from "../support/oauth-server";
import { pushReceiver } from "../support/web-push-receiver";
import { asAdmin, type Client, clientFor, openSocket, type Socket, signUp, waitIdle } from "./api-client";
import { type App, E2E_PASSWORD, sharedBrowser, signUpInBrowser, startApp, uniqueUsername, withPage } from "./harness";

const PASSWORD = "long enough password"; // api-client's signUp
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** One word (one FTS5 token, which the porter stemmer leaves whole: it ends in a digit), unique to this run. */
const live = (): App => {
  if (!app) throw new Error("the app is not running");
  return app;
};
const word = (stem: string) => `${stem}${Math.random().toString(36).slice(2, 8)}7`;

let app: App | undefined;
let browser: Browser;
let mcp: TestMcpServer;
let as: TestOAuthServer;

beforeAll(async () => {
  [app, browser, mcp, as] = await Promise.all([
    startApp({ direct: true }),
    sharedBrowser(),
    startMcpServer({ token: "tools-secret" }),
    startOAuthServer(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await mcp?.close();
  await as?.close();
});

describe("Settings → Account → Delete account", () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`asks for the username and the password, deletes, and signs out saying so (${viewport.width} px)`, async () => {
      await withPage({ app: live(), browser }, `delete-account-${viewport.width}`, { viewport }, async (page) => {
        const username = await signUpInBrowser(page, uniqueUsername("gone"));
        await page.goto("/settings/account");
        const section = page.locator("[data-testid=delete-account]");
        await section.locator("[data-testid=delete-account-start]").click();
        const confirm = section.locator("[data-testid=delete-account-confirm]");
        await confirm.scrollIntoViewIfNeeded();
        expect(await confirm.isVisible()).toBe(true);

        // A slip in the username is refused before anything is sent; then a wrong password, by the server.
        await section.locator("[data-testid=delete-account-username]").fill(`${username}x`);
        await section.locator("[data-testid=delete-account-password]").fill(E2E_PASSWORD);
        await confirm.click();
        await section.locator("#delete-account-username-problem").waitFor();
        expect(await section.locator("[data-testid=delete-account-username]").getAttribute("aria-invalid")).toBe(
          "true",
        );
        await section.locator("[data-testid=delete-account-username]").fill(username);
        await section.locator("[data-testid=delete-account-password]").fill("not the password");
        await confirm.click();
        const wrong = section.locator("#delete-account-password-problem");
        await wrong.waitFor();
        expect(await wrong.textContent()).toBe("That is not your password.");
        expect((await page.request.get("/api/me")).status()).toBe(200);

        await section.locator("[data-testid=delete-account-password]").fill(E2E_PASSWORD);
        await confirm.click();
        await page.waitForURL((url) => url.pathname === "/login" && url.search === "");
        expect(await page.locator("[data-testid=account-deleted]").textContent()).toBe(
          "Your account was deleted, with everything in it.",
        );
        expect((await page.request.get("/api/me")).status()).toBe(401);
        await page.locator("[data-testid=auth-username]").fill(username);
        await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
        await page.locator("[data-testid=auth-submit]").click();
        expect(await page.locator("[data-testid=auth-error]").textContent()).toBe("Wrong username or password");
      });
    });
  }
});

type Json = Record<string, unknown>;

async function call(client: Pick<Client, "origin" | "headers">, method: string, url: string, body?: unknown) {
  const res = await fetch(`${client.origin}${url}`, {
    method,
    headers: client.headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json, headers: res.headers };
}

async function ok(client: Pick<Client, "origin" | "headers">, method: string, url: string, body?: unknown) {
  const res = await call(client, method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** `promise`, or a failure naming `what` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A socket that remembers how it closed. */
async function watched(client: Pick<Client, "origin" | "headers">, id: string) {
  const socket = await openSocket(client, id);
  const closed = new Promise<number>((resolve) => socket.ws.addEventListener("close", (e) => resolve(e.code)));
  return { socket, closed };
}

/** Sends a chat frame and waits for what `until` looks for after it. */
async function chat(socket: Socket, content: string, until: (f: { type: string; [k: string]: unknown }) => boolean) {
  const from = socket.frames.length;
  socket.send({ type: "chat", content });
  return socket.until(until, { from, timeoutMs: 30_000 });
}
const turnEnded = (f: { type: string }) => f.type === "response_complete";

/** A's or B's account, used the way a user would use every feature. */
interface User {
  client: Client;
  id: string;
  username: string;
  word: string;
  conversation: string;
}

async function userOf(username: string, w: string): Promise<User> {
  const client = await signUp(live().url, username);
  const me = (await ok(client, "GET", "/api/me")) as { user: { id: string } };
  const conversation = (await ok(client, "POST", "/api/conversations", { title: `about ${w}` })).id as string;
  return { client, id: me.user.id, username, word: w, conversation };
}

/** Notes, tasks, the library, settings: D1 rows of the user's, with the user's words. */
async function fillD1(u: User): Promise<void> {
  const { client, word: w } = u;
  await ok(client, "PUT", `/api/notes/${w}.md`, { content: `The plan is ${w}.` });
  await ok(client, "POST", "/api/tasks", { title: `Do ${w}`, details: `details ${w}` });
  await ok(client, "PUT", `/api/knowledge/k-${w}`, { title: `Knowing ${w}`, body: `All about ${w}.` });
  await ok(client, "PUT", `/api/workflows/w-${w}`, { title: `Flow ${w}`, body: `Run ${w}.` });
  await ok(client, "PUT", "/api/settings/agent", { maxIterations: 12 });
  await ok(client, "PUT", "/api/settings/time-zone", { time_zone: "Europe/Paris" });
  await ok(client, "PUT", "/api/tool-approvals", { tool: "task_create", mode: "ask" });
}

/** A's MCP servers: one with a bearer secret, one connected through OAuth (the grant lives at `as`). */
async function addMcpServers(a: User): Promise<string> {
  await ok(a.client, "POST", "/api/mcp-servers", {
    name: "tools",
    url: `${mcp.url}?tag=${a.word}`,
    auth: { type: "bearer", token: "tools-secret" },
  });
  const oauth = (await ok(a.client, "POST", "/api/mcp-servers", {
    name: "guarded",
    url: as.mcpUrl,
    auth: { type: "oauth" },
  })) as { id: string };
  const started = (await ok(a.client, "POST", `/api/mcp-servers/${oauth.id}/oauth/start`)) as {
    authorization_url: string;
  };
  const approved = await fetch(started.authorization_url, { redirect: "manual" });
  const back = new URL(approved.headers.get("location") ?? "");
  const callback = await fetch(`${live().url}${back.pathname}${back.search}`, {
    headers: { cookie: a.client.cookie },
    redirect: "manual",
  });
  expect(new URL(callback.headers.get("location") ?? "", live().url).searchParams.get("mcp_oauth")).toBe("connected");
  return oauth.id;
}

/**
 * Every file of SQLite under the app's state: D1's, each Durable Object's, the runtime's own. Not the
 * local stand-in for Workers Logs (`[observability]`, v3/observability/): the platform's record of
 * requests (their URLs) and log lines, which the operator's log retention governs, not the app.
 */
function sqliteFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".sqlite") && !f.startsWith(`v3${path.sep}observability${path.sep}`))
    .map((f) => path.join(dir, f));
}

/**
 * Where each needle occurs in any row of any table (virtual tables, whose rows are read from tables
 * also read here, through their module where Node's SQLite has it); blobs are read as Latin-1 bytes,
 * which holds both UTF-8 text and the runtime's own serialisation of a stored string.
 */
function occurrences(dir: string, needles: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>(needles.map((n) => [n, []]));
  for (const file of sqliteFiles(dir)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      for (const { name } of tables) {
        let rows: Record<string, unknown>[];
        try {
          rows = db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as Record<string, unknown>[];
        } catch {
          continue; // a virtual table of a module Node lacks: its shadow tables are read on their own
        }
        for (const row of rows)
          for (const value of Object.values(row)) {
            const text =
              value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : value === null ? "" : String(value);
            for (const needle of needles)
              if (text.includes(needle)) found.get(needle)?.push(`${path.relative(dir, file)} ${name}`);
          }
      }
    } finally {
      db.close();
    }
  }
  return found;
}

describe("a deleted account", () => {
  it("leaves no trace in any row of any database or object's storage, before and after a restart", async () => {
    const a = await userOf(uniqueUsername("zq"), word("zebraquartz"));
    const b = await userOf(uniqueUsername("wl"), word("wombatlapis"));
    await Promise.all([fillD1(a), fillD1(b)]);
    await addMcpServers(a);
    await ok(a.client, "POST", "/api/providers", {
      name: "Own model",
      base_url: "http://127.0.0.1:9/v1",
      api_key: `sk-${a.word}`,
      style: "chat",
      models: [{ id: `m-${a.word}`, context_window: 8000 }],
    });
    const token = (await ok(a.client, "POST", "/api/tokens", { name: `script ${a.word}` })).token as string;
    const receiver = pushReceiver();
    await ok(a.client, "POST", "/api/push/subscriptions", {
      endpoint: `http://127.0.0.1:9/push/${a.word}`,
      keys: { p256dh: receiver.p256dh, auth: receiver.auth },
    });
    const login = await fetch(`${live().url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: live().url },
      body: JSON.stringify({ username: a.username, password: PASSWORD }),
    });
    const second = clientFor(live().url, (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "");

    // Turns: a note written by the agent, then a subagent that searches for A's word (its own conversation).
    const main = await watched(a.client, a.conversation);
    await chat(main.socket, `write a note called log-${a.word}: remember ${a.word}`, turnEnded);
    await chat(main.socket, `delegate searching my notes for ${a.word} to a subagent`, turnEnded);
    // The subagent's conversation is not listed, but it is A's, with A's words in its task.
    const child = main.socket.frames.find((f) => f.type === "subagent_frame")?.conversation_id as string;
    expect(child).toBeTruthy();
    expect(JSON.stringify(await a.client.messages(child))).toContain(a.word);
    const bTurn = await watched(b.client, b.conversation);
    await chat(bTurn.socket, `write a note called log-${b.word}: remember ${b.word}`, turnEnded);
    // An approval and a question left waiting (each with its alarm), from the second session and the token.
    const approving = (await ok(a.client, "POST", "/api/conversations", {})).id as string;
    const bySecond = await watched(second, approving);
    await chat(bySecond.socket, `call tools__echo {"text": "${a.word}"}`, (f) => f.type === "tool_approval_request");
    const asking = (await ok(a.client, "POST", "/api/conversations", {})).id as string;
    const byToken = await watched({ origin: live().url, headers: { authorization: `Bearer ${token}` } }, asking);
    await chat(
      byToken.socket,
      `ask me a question about ${a.word}`,
      (f) => f.type === "agent_update" && f.update_type === "agent_request_input",
    );
    await ok(a.client, "POST", `/api/conversations/${a.conversation}/notify`, { message: `ping ${a.word}` });
    const share = (await ok(a.client, "POST", `/api/conversations/${a.conversation}/shares`, {})).id as string;
    expect((await fetch(`${live().url}/api/shared/${share}`)).status).toBe(200);
    // Schedules due in a few seconds: A's must never run; B's runs after the restart, if not before.
    const due = new Date(Date.now() + 5_000).toISOString();
    for (const u of [a, b])
      await ok(u.client, "POST", "/api/schedules", { conversation_id: u.conversation, text: `run ${u.word}`, at: due });
    await ok(a.client, "POST", "/api/schedules", {
      conversation_id: a.conversation,
      text: `hourly ${a.word}`,
      repeat: "every hour",
    });
    // An admin's action on A: the audit log names A (afterwards as "deleted user").
    const admin = await asAdmin(live().url);
    await ok(admin, "PUT", `/api/admin/users/${a.id}/quota`, { daily_tokens: 123_456 });
    const needles = [a.id, a.username, a.word];
    expect([...occurrences(live().persistDir, needles).values()].every((places) => places.length > 0)).toBe(true);

    // A mistyped username changes nothing; then A deletes the account.
    const slip = await call(a.client, "DELETE", "/api/account", {
      username: b.username,
      confirm: { password: PASSWORD },
    });
    expect(slip.status).toBe(400);
    expect(slip.body.error).toMatchObject({ code: "invalid_input", fields: { username: expect.any(String) } });
    const gone = await call(a.client, "DELETE", "/api/account", {
      username: a.username,
      confirm: { password: PASSWORD },
    });
    expect(gone.status).toBe(204);
    expect(gone.headers.get("set-cookie")).toMatch(/oracle_session=;/);

    // At once: the share link is gone, every socket of A's closed, no credential of A's works.
    expect((await fetch(`${live().url}/api/shared/${share}`)).status).toBe(404);
    expect((await fetch(`${live().url}/s/${share}`)).status).toBe(404);
    const codes = await within(
      Promise.all([main.closed, bySecond.closed, byToken.closed]),
      5_000,
      "A's sockets closed",
    );
    expect(codes.every((code) => code === 1000 || code === 4401)).toBe(true);
    for (const client of [a.client, second, { origin: live().url, headers: { authorization: `Bearer ${token}` } }])
      expect((await call(client, "GET", "/api/me")).status).toBe(401);
    // The OAuth grant was revoked at its authorization server: both tokens.
    expect(as.revocations.map((r) => r.hint).sort()).toEqual(["access_token", "refresh_token"]);
    expect(as.liveGrants()).toBe(0);
    const audit = (await ok(admin, "GET", "/api/admin/audit")) as { entries: { action: string; target: string }[] };
    expect(audit.entries.find((e) => e.action === "set_quota")?.target).toBe(DELETED_USER);
    // B is untouched.
    expect((await ok(b.client, "GET", `/api/notes/${b.word}.md`)).content).toBe(`The plan is ${b.word}.`);
    await bTurn.socket.ws.close();

    // Nothing of A's in any row, with the app stopped; B's words are there.
    await live().stop({ keepState: true });
    const persistDir = live().persistDir;
    const none = { [a.id]: [], [a.username]: [], [a.word]: [] };
    const found = Object.fromEntries(occurrences(persistDir, [...needles, b.word]));
    expect(found[b.word]?.length).toBeGreaterThan(0);
    delete found[b.word];
    expect(found).toEqual(none);

    // Started again on that state and left past both schedules' time: B's runs, A's nothing.
    app = await startApp({ direct: true, persistTo: persistDir });
    const bAgain = clientFor(app.url, b.client.cookie);
    const deadline = Date.now() + 30_000;
    while (!(await bAgain.messages(b.conversation)).some((m) => m.role === "user" && m.origin)) {
      if (Date.now() > deadline) throw new Error("B's schedule did not run after the restart");
      await sleep(250);
    }
    await waitIdle(bAgain, b.conversation);
    await sleep(Math.max(0, Date.parse(due) - Date.now()) + 2_000);
    await app.stop({ keepState: true });
    app = undefined;
    expect(Object.fromEntries(occurrences(persistDir, needles))).toEqual(none);
    await rm(persistDir, { recursive: true, force: true });
  });
});
