// MCP servers behind OAuth (issue 30), the parts inside the Worker: an OAuth server's API shape (no
// secret, status needs_authorization), the routes' ownership and refusals, a callback state that is not
// the user's pending one, and read_only on listed tools. Against hostile authorization servers (issue
// 40): answers over their size limits, a javascript: endpoint, a sign-in page that is not a web page, all
// refused in words, and a failed exchange that leaves Connect working. The whole flow in the browser is
// test/e2e/mcp-oauth.test.ts; the conformance cases are mcp-oauth-conformance.test.ts.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { endpointOf, getMcpServerRow } from "../../d1/mcp-servers";
import { OAuthAuthorizationNeeded } from "../../mcp/oauth-rules";
import type { ErrorBody, McpServer, McpTestResult } from "../../protocol";
import { api, type Session, signup } from "./helpers";
import { addServer, authorizationServer, connect, readServer, startConnecting } from "./mcp-oauth-helpers";

const mcpUrl = inject("mcpUrl");

async function added(session: Session, body: Record<string, unknown>): Promise<McpServer> {
  const res = await api("/api/mcp-servers", { method: "POST", json: body, headers: session.headers });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

describe("MCP OAuth: the API", () => {
  it("saves an OAuth server with a client id and a write-only secret, not connected yet", async () => {
    const s = await signup();
    const secret = "oauth-client-secret-4b1d";
    const server = await added(s, {
      name: "guarded",
      url: mcpUrl,
      auth: { type: "oauth", client_id: "my-client", client_secret: secret },
    });
    expect(server.auth).toEqual({
      type: "oauth",
      status: "needs_authorization",
      expires_at: null,
      scopes: [],
      client_id: "my-client",
      error: null,
      needed_scopes: [],
    });
    const listed = await api("/api/mcp-servers", { headers: s.headers });
    expect(await listed.text()).not.toContain(secret);
    // A connection needs the user first: in words, never a crash.
    const row = await getMcpServerRow(s.db, s.user.id, server.id);
    if (!row) throw new Error("row missing");
    await expect(endpointOf(row, env.SECRETS_KEY)).rejects.toBeInstanceOf(OAuthAuthorizationNeeded);
  });

  it("refuses a client secret without a client id", async () => {
    const s = await signup();
    const res = await api("/api/mcp-servers", {
      method: "POST",
      json: { name: "x", url: mcpUrl, auth: { type: "oauth", client_secret: "s" } },
      headers: s.headers,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.fields).toHaveProperty("auth.client_id");
  });

  it("starts and disconnects only the user's own OAuth servers", async () => {
    const owner = await signup();
    const other = await signup();
    const plain = await added(owner, { name: "plain", url: mcpUrl });
    const oauth = await added(owner, { name: "guarded", url: mcpUrl, auth: { type: "oauth" } });
    const start = (s: Session, id: string) =>
      api(`/api/mcp-servers/${id}/oauth/start`, { method: "POST", headers: s.headers });
    expect((await start(other, oauth.id)).status).toBe(404);
    const notOAuth = await start(owner, plain.id);
    expect(notOAuth.status).toBe(409);
    expect(((await notOAuth.json()) as ErrorBody).error.code).toBe("conflict");
    // The plain test server publishes no OAuth metadata: refused in words.
    const noMetadata = await start(owner, oauth.id);
    expect(noMetadata.status).toBe(409);
    expect(((await noMetadata.json()) as ErrorBody).error.message).toMatch(/^Could not start connecting guarded: /);
    const disconnect = await api(`/api/mcp-servers/${oauth.id}/oauth/disconnect`, {
      method: "POST",
      headers: other.headers,
    });
    expect(disconnect.status).toBe(404);
  });

  it("refuses a callback whose state is not the user's pending one, changing nothing", async () => {
    const s = await signup();
    const server = await added(s, { name: "guarded", url: mcpUrl, auth: { type: "oauth" } });
    const before = await getMcpServerRow(s.db, s.user.id, server.id);
    for (const state of ["nonsense", `${server.id}.${"A".repeat(43)}`, `${crypto.randomUUID()}.${"B".repeat(43)}`]) {
      const res = await api(`/api/mcp-servers/oauth/callback?code=c&state=${encodeURIComponent(state)}`, {
        headers: s.headers,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.fields).toEqual({ state: expect.any(String) });
    }
    expect(await getMcpServerRow(s.db, s.user.id, server.id)).toEqual(before);
    const missing = await api("/api/mcp-servers/oauth/callback?code=c", { headers: s.headers });
    expect(missing.status).toBe(400);
  });

  it("lists each tool with read_only from the server's readOnlyHint", async () => {
    const s = await signup();
    const server = await added(s, { name: "local", url: mcpUrl });
    const res = await api(`/api/mcp-servers/${server.id}/test`, { method: "POST", headers: s.headers });
    const tested = (await res.json()) as McpTestResult;
    expect(tested.ok).toBe(true);
    const readOnly = Object.fromEntries(tested.server.tools.map((t) => [t.name, t.read_only]));
    expect(readOnly).toMatchObject({ lookup: true, echo: false, fail: false });
  });
});

describe("MCP OAuth: a hostile authorization server", () => {
  it("answers a 1 MiB access token with a failed connection in words, and Connect starts again", async () => {
    const as = await authorizationServer({ accessTokenChars: 1024 * 1024 });
    const s = await signup();
    const server = await addServer(s, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
    // The callback is a redirect back to Settings, not a 500: the exchange failed, and says why.
    const { outcome } = await connect(s, server.id);
    expect(outcome).toBe("failed");
    const after = await readServer(s, server.id);
    expect(after.auth).toMatchObject({ type: "oauth", status: "needs_authorization" });
    expect(after.last_error).toBe(
      "connecting failed: the authorization server's answer is larger than 64 KB; connect it again to retry",
    );
    expect(after.last_error).not.toMatch(/RangeError|stack/);
    // The spent state is no dead end: Connect gives a new authorization.
    const again = await startConnecting(s, server.id);
    expect(again.status).toBe(200);
  });

  it("keeps a token endpoint's 50 KB error description cut short", async () => {
    const as = await authorizationServer({ tokenError: "no ".repeat(17_000) });
    const s = await signup();
    const server = await addServer(s, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
    expect((await connect(s, server.id)).outcome).toBe("failed");
    const { last_error } = await readServer(s, server.id);
    expect(last_error).toMatch(/^connecting failed: (no ){100}.*…; connect it again to retry$/);
    expect(last_error?.length).toBeLessThan(600);
  });

  it("refuses authorization server metadata with a 300 KB field in words", async () => {
    const as = await authorizationServer({ metadata: { service_documentation_extra: "x".repeat(300_000) } });
    const s = await signup();
    const server = await addServer(s, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
    const res = await startConnecting(s, server.id);
    expect(res.status).toBe(409);
    const { message } = ((await res.json()) as ErrorBody).error;
    expect(message).toBe(
      "Could not start connecting guarded: could not discover its authorization server (the authorization server's answer is larger than 64 KB)",
    );
    expect(message.length).toBeLessThan(300);
  });

  it("refuses a javascript: authorization endpoint in words, not as a schema dump", async () => {
    const as = await authorizationServer({ metadata: { authorization_endpoint: "javascript:alert(document.cookie)" } });
    const s = await signup();
    const server = await addServer(s, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
    const res = await startConnecting(s, server.id);
    expect(res.status).toBe(409);
    const { message } = ((await res.json()) as ErrorBody).error;
    expect(message).toMatch(/authorization_endpoint: URL cannot use javascript:/);
    expect(message).not.toMatch(/\[\{|"code"/);
  });

  it.each(["file:///etc/passwd", "blob:https://evil.example/6f1c3b9e-1d5e-4b1a-9f59-0c8c7f0e2a11"])(
    "never hands the browser a sign-in page at %s",
    async (endpoint) => {
      const as = await authorizationServer({ metadata: { authorization_endpoint: endpoint } });
      const s = await signup();
      const server = await addServer(s, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
      const res = await startConnecting(s, server.id);
      expect(res.status).toBe(409);
      const text = await res.text();
      expect(text).not.toContain(endpoint);
      expect((JSON.parse(text) as ErrorBody).error.message).toMatch(/sign-in page is not an https address/);
      // Nothing is pending: no callback could complete it.
      const row = await getMcpServerRow(s.db, s.user.id, server.id);
      expect(row?.sealedOauthPending).toBeNull();
    },
  );
});
