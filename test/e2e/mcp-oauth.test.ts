// MCP servers behind OAuth (issue 30) in the browser, against a real OAuth 2.1 authorization server and
// protected MCP server on loopback (test/support/oauth-server.ts). Settings → Tools adds the server with
// "OAuth", Connect opens the authorization server in a popup (dynamic registration, PKCE, state,
// resource), and the popup's return shows it connected with its tools; the agent calls one of them.
// An access token the server expired is refreshed (once, counted by the authorization server) and the
// call works; a revoked grant shows in Settings in words with "Reconnect" and reaches the turn as a
// System message in words; Reconnect works again; Disconnect revokes the grant at the authorization
// server. A callback with a bad, foreign or replayed `state` is refused and changes nothing.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { startOAuthServer, type TestOAuthServer } from "../support/oauth-server";
import {
  apiFromPage,
  asNewUser,
  newConversationInBrowser,
  sendChat,
  useSharedFakeModelApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();
let as: TestOAuthServer;

beforeAll(async () => {
  as = await startOAuthServer();
});
afterAll(async () => {
  await as?.close();
});

type ServerBody = {
  id: string;
  name: string;
  auth: { type: string; status?: string; scopes?: string[]; error?: string | null };
  tools: { name: string; read_only: boolean }[];
  last_error: string | null;
};

async function addOAuthServer(page: Page, name: string): Promise<void> {
  await page.goto("/settings/tools");
  await page.locator("[data-testid=mcp-empty]").waitFor({ timeout: 15_000 });
  const form = page.locator("[data-testid=mcp-add-form]");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("URL", { exact: true }).fill(as.mcpUrl);
  await form.getByLabel("Authentication").selectOption("oauth");
  await form.locator("[data-testid=mcp-add-oauth-advanced]").waitFor();
  await form.locator("[data-testid=mcp-add-submit]").click();
  await page.locator(`[data-testid=mcp-server][data-name=${name}]`).waitFor({ timeout: 15_000 });
}

/** Clicks Connect (or Reconnect): the popup goes to the authorization server, comes back and closes. */
async function connectInPopup(page: Page, name: string): Promise<void> {
  const row = page.locator(`[data-testid=mcp-server][data-name=${name}]`);
  const [popup] = await Promise.all([
    page.waitForEvent("popup", { timeout: 15_000 }),
    row.locator("[data-testid=mcp-oauth-connect]").click(),
  ]);
  await popup.waitForEvent("close", { timeout: 8_000 }).catch(async (e) => {
    console.log(
      "POPUP",
      popup.url(),
      await popup
        .evaluate(() => [String(window.opener), location.href, document.body.innerText.slice(0, 300)])
        .catch(String),
    );
    throw e;
  });
  await expect
    .poll(() => row.locator("[data-testid=mcp-oauth]").getAttribute("data-status"), { timeout: 20_000 })
    .toBe("connected");
}

async function serverNamed(page: Page, name: string): Promise<ServerBody> {
  const listed = await apiFromPage<{ servers: ServerBody[] }>(page, "GET", "/api/mcp-servers");
  const found = listed.body.servers.find((s) => s.name === name);
  if (!found) throw new Error(`no server ${name}`);
  return found;
}

/** One turn, in a conversation of its own, in which the model calls `tool` with `args`, then answers. */
async function turnCalling(page: Page, tool: string, args: Record<string, unknown>): Promise<void> {
  const id = await newConversationInBrowser(page);
  const key = `oauth-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  await scriptModel(live.llm.url, key, [{ tool_calls: [{ name: tool, arguments: args }] }, { text: "Done." }]);
  const finals = await page.locator("[data-role=agent][data-phase=final]").count();
  await sendChat(page, `Use ${tool} ${marker(key)}`);
  await expect
    .poll(() => page.locator("[data-role=agent][data-phase=final]").count(), { timeout: 30_000 })
    .toBe(finals + 1);
  await waitTurnEnded(page, id);
}

it("connects an OAuth MCP server in a popup, refreshes its token, survives a revoked grant, reconnects and disconnects", async () => {
  await asNewUser(live, "mcp-oauth", {}, async (page) => {
    await addOAuthServer(page, "guarded");
    const row = page.locator("[data-testid=mcp-server][data-name=guarded]");
    await expect
      .poll(() => row.locator("[data-testid=mcp-oauth]").getAttribute("data-status"))
      .toBe("needs_authorization");
    expect(await row.locator("[data-testid=mcp-oauth-connect]").textContent()).toBe("Connect");

    // Connect: registered dynamically, one code exchanged; its tools are listed.
    await connectInPopup(page, "guarded");
    expect(as.registrations).toBe(1);
    expect(as.exchanges).toBe(1);
    await expect
      .poll(() => row.locator("[data-testid=mcp-status]").getAttribute("data-state"), { timeout: 20_000 })
      .toBe("ok");
    expect(await row.locator("[data-testid=mcp-auth]").textContent()).toBe("OAuth · connected");
    expect(await row.locator("[data-testid=mcp-oauth-disconnect]").textContent()).toBe("Disconnect");
    await row.locator("[data-testid=mcp-tool][data-tool=guarded__echo]").waitFor();
    const server = await serverNamed(page, "guarded");
    expect(server.auth).toMatchObject({ type: "oauth", status: "connected", scopes: ["tools"], error: null });
    expect(server.tools.find((t) => t.name === "lookup")?.read_only).toBe(true);
    expect(server.tools.find((t) => t.name === "echo")?.read_only).toBe(false);
    // No token in any answer or on the page.
    const listed = JSON.stringify(await apiFromPage(page, "GET", "/api/mcp-servers"));
    expect(listed).not.toMatch(/"at-|"rt-|access_token|refresh_token|verifier/);
    expect(await page.content()).not.toMatch(/at-[0-9a-f]{8}-|rt-[0-9a-f]{8}-/);

    // A turn calls its (read-only, so not waiting for approval) tool with the access token.
    await turnCalling(page, "guarded__lookup", { word: "first" });
    expect(as.inner.calls).toContainEqual({ tool: "lookup", args: { word: "first" } });
    expect(as.bearerSeen.at(-1)).toMatch(/^Bearer at-/);

    // The access token expires at the server: the next turn's 401 refreshes it once, and the call works.
    const refreshes = as.refreshes;
    as.expireAccessTokens();
    await turnCalling(page, "guarded__lookup", { word: "second" });
    expect(as.inner.calls).toContainEqual({ tool: "lookup", args: { word: "second" } });
    expect(as.refreshes).toBe(refreshes + 1);

    // Three connections race on an expired token: one refreshes, the others wait for its tokens, so
    // the rotated refresh token is used once and none of them is refused.
    const before = { refreshes: as.refreshes, refused: as.refusedRefreshes };
    as.expireAccessTokens();
    const tests = await Promise.all(
      [1, 2, 3].map(() => apiFromPage<{ ok: boolean }>(page, "POST", `/api/mcp-servers/${server.id}/test`)),
    );
    expect(tests.map((t) => [t.status, t.body.ok])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    expect(as.refreshes).toBe(before.refreshes + 1);
    expect(as.refusedRefreshes).toBe(before.refused);

    // The grant is revoked: the turn says so in words (a System message), and so does Settings.
    as.revokeGrants();
    await turnCalling(page, "guarded__lookup", { word: "third" });
    expect(as.inner.calls).not.toContainEqual({ tool: "lookup", args: { word: "third" } });
    const words = "The authorization for guarded expired or was revoked; reconnect it in Settings → Tools";
    const card = page.locator("[data-role=system][data-subscriber=mcp_unavailable]").last();
    await card.waitFor({ timeout: 10_000 });
    await expect
      .poll(async () => (await page.locator("[data-role=system]").allTextContents()).join(" "))
      .toContain("The authorization for guarded expired or was revoked");
    await page.goto("/settings/tools");
    await expect
      .poll(() => row.locator("[data-testid=mcp-oauth]").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("expired");
    expect(await row.locator("[data-testid=mcp-oauth-status]").textContent()).toBe(words);
    expect(await row.locator("[data-testid=mcp-oauth-connect]").textContent()).toBe("Reconnect");
    expect((await serverNamed(page, "guarded")).auth).toMatchObject({ status: "expired", error: words });

    // Reconnect: a new grant (the registration is reused), and the tool works again.
    await connectInPopup(page, "guarded");
    expect(as.registrations).toBe(1);
    expect(as.liveGrants()).toBe(1);
    await turnCalling(page, "guarded__lookup", { word: "fourth" });
    expect(as.inner.calls).toContainEqual({ tool: "lookup", args: { word: "fourth" } });

    // Disconnect: revoked at the authorization server, tokens forgotten.
    await page.goto("/settings/tools");
    const revocations = as.revocations.length;
    await row.locator("[data-testid=mcp-oauth-disconnect]").click();
    await expect
      .poll(() => row.locator("[data-testid=mcp-oauth]").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("needs_authorization");
    expect(as.revocations.length).toBe(revocations + 1);
    expect(as.revocations.at(-1)?.hint).toBe("refresh_token");
    expect(as.liveGrants()).toBe(0);
  });
});

/** Starts the flow through the API and follows the authorization server's approval: the callback URL it sends back. */
async function callbackUrl(page: Page, serverId: string): Promise<string> {
  const started = await apiFromPage<{ authorization_url: string }>(
    page,
    "POST",
    `/api/mcp-servers/${serverId}/oauth/start`,
  );
  expect(started.status).toBe(200);
  const approved = await fetch(started.body.authorization_url, { redirect: "manual" });
  const location = approved.headers.get("location");
  if (!location) throw new Error(`authorization server answered ${approved.status}`);
  return location;
}

it("refuses a bad, foreign or replayed state on the callback, changing nothing", async () => {
  await asNewUser(live, "mcp-oauth-state", {}, async (page) => {
    await addOAuthServer(page, "owned");
    const { id } = await serverNamed(page, "owned");
    const callback = await callbackUrl(page, id);
    const state = new URL(callback).searchParams.get("state") ?? "";
    expect(state.startsWith(`${id}.`)).toBe(true);
    const exchanges = as.exchanges;

    // Made-up states: 400 in the API's error shape.
    for (const bad of ["nonsense", `${id}.${"A".repeat(43)}`]) {
      const answer = await apiFromPage<{ error: { code: string; fields: Record<string, string> } }>(
        page,
        "GET",
        `/api/mcp-servers/oauth/callback?code=x&state=${encodeURIComponent(bad)}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("invalid_input");
      expect(Object.keys(answer.body.error.fields)).toEqual(["state"]);
    }

    // Another user with the real callback URL: refused, and the owner's flow is untouched.
    await asNewUser(live, "mcp-oauth-thief", {}, async (thief) => {
      const stolen = await thief.goto(callback);
      expect(stolen?.status()).toBe(400);
    });
    expect(as.exchanges).toBe(exchanges);
    expect((await serverNamed(page, "owned")).auth.status).toBe("needs_authorization");

    // The owner completes it, once; the same callback again is refused and changes nothing.
    const done = await page.goto(callback);
    expect(new URL(page.url()).pathname).toBe("/settings/tools");
    expect(done?.status()).toBe(200);
    expect((await serverNamed(page, "owned")).auth.status).toBe("connected");
    expect(as.exchanges).toBe(exchanges + 1);
    const replayed = await page.goto(callback);
    expect(replayed?.status()).toBe(400);
    expect(as.exchanges).toBe(exchanges + 1);
    expect((await serverNamed(page, "owned")).auth.status).toBe("connected");
  });
});
