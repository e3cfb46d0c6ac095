// The MCP authorization spec's harder cases (issue 40), each against a real authorization server of its
// own (test/support/oauth-factory.ts), as the official conformance suite's client scenarios check them:
// OAuth found when `initialize` is open and only later requests want a token; the 2025-03-26 fallback
// to /authorize, /token and /register at the server's origin; the Worker's client ID metadata document
// instead of a registration; a call refused for want of a scope (403 insufficient_scope) that asks the
// user to reconnect, after which the new authorization asks for the union of scopes and the call works;
// and a 403 naming only granted scopes, which never asks again.
import { describe, expect, it } from "vitest";
import { scopeChallenge } from "../../d1/mcp-oauth";
import { getMcpServerRow } from "../../d1/mcp-servers";
import { OAuthScopeRefused } from "../../mcp/oauth-rules";
import { MCP_OAUTH_CLIENT_METADATA_PATH, type McpServer, type McpTestResult, type ToolMessage } from "../../protocol";
import { api, signup } from "./helpers";
import { addServer, authorizationServer, connect, readServer, workerAt } from "./mcp-oauth-helpers";
import { chat, history, scenario } from "./turn-helpers";

describe("MCP OAuth conformance", () => {
  it("offers Connect for a server whose initialize is open but whose tools/list wants a token", async () => {
    const as = await authorizationServer({ openInitialize: true });
    const s = await signup();
    const server = await addServer(s, { name: "halfopen", url: as.mcpUrl });
    const res = await api(`/api/mcp-servers/${server.id}/test`, { method: "POST", headers: s.headers });
    const tested = (await res.json()) as McpTestResult;
    expect(tested.ok).toBe(false);
    expect(tested.error).toMatch(/requires OAuth authorization; connect it/);
    expect(tested.server.auth).toMatchObject({ type: "oauth", status: "needs_authorization" });
    // And Connect works: the scope comes from the challenge of the request that wanted the token.
    expect((await connect(s, server.id)).outcome).toBe("connected");
    const connected = await readServer(s, server.id);
    expect(connected.auth).toMatchObject({ status: "connected", scopes: ["tools"] });
    expect(connected.tools.map((t) => t.name)).toContain("echo");
  });

  it("falls back to /authorize, /token and /register at the origin of a server without metadata (2025-03-26)", async () => {
    const as = await authorizationServer({ noMetadata: true });
    const s = await signup();
    const server = await addServer(s, { name: "legacy", url: as.mcpUrl, auth: { type: "oauth" } });
    const { outcome, authorizationUrl } = await connect(s, server.id);
    expect(authorizationUrl.href.startsWith(`${new URL(as.mcpUrl).origin}/authorize?`)).toBe(true);
    expect(outcome).toBe("connected");
    const record = await as.record();
    expect(record).toMatchObject({ registrations: 1, exchanges: 1 });
    expect((await readServer(s, server.id)).tools.map((t) => t.name)).toContain("echo");
  });

  it("identifies an https Worker by its client ID metadata document instead of registering; over http it registers", async () => {
    const https = workerAt("https://oracle.test");
    const document = (await (await https(MCP_OAUTH_CLIENT_METADATA_PATH)).json()) as Record<string, unknown>;
    const clientId = `https://oracle.test${MCP_OAUTH_CLIENT_METADATA_PATH}`;
    expect(document).toMatchObject({
      client_id: clientId,
      redirect_uris: ["https://oracle.test/api/mcp-servers/oauth/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    const as = await authorizationServer({
      metadata: { client_id_metadata_document_supported: true },
      clientDocuments: { [clientId]: { redirect_uris: document.redirect_uris as string[] } },
    });
    const s = await signup();
    const server = await addServer(s, { name: "cimd", url: as.mcpUrl, auth: { type: "oauth" } }, https);
    const { outcome, authorizationUrl } = await connect(s, server.id, https);
    expect(authorizationUrl.searchParams.get("client_id")).toBe(clientId);
    expect(outcome).toBe("connected");
    expect(await as.record()).toMatchObject({ registrations: 0, exchanges: 1 });
    // A Worker on plain http (npm start, loopback) has no https document to offer: it registers.
    const plain = await addServer(s, { name: "plain", url: as.mcpUrl, auth: { type: "oauth" } });
    expect((await connect(s, plain.id)).outcome).toBe("connected");
    expect((await as.record()).registrations).toBe(1);
  });

  it("asks to reconnect for a scope a call was refused, then asks for the union and the call works", async () => {
    const as = await authorizationServer({ toolScopes: { echo: ["tools", "tools:write"] } });
    const call = { tool_calls: [{ name: "guarded__echo", arguments: { text: "hi" } }] };
    const s = await scenario([call, { text: "It needs more access." }, call, { text: "It echoed." }]);
    const server = await addServer(s.session, { name: "guarded", url: as.mcpUrl, auth: { type: "oauth" } });
    const rule = { tool: `mcp:${server.id}:*`, mode: "allow" };
    expect((await api("/api/tool-approvals", { method: "PUT", json: rule, headers: s.session.headers })).status).toBe(
      200,
    );
    expect((await connect(s.session, server.id)).outcome).toBe("connected");

    // The call's result tells the model (and the user reading it) what to do; Settings offers Reconnect.
    await chat(s, "echo hi");
    const [refused] = (await history(s)).filter((m): m is ToolMessage => m.role === "tool");
    expect(refused).toMatchObject({ tool: "guarded__echo", status: "error" });
    expect(refused?.error).toContain("guarded needs more access (tools:write); reconnect it in Settings → Tools");
    const needing = await readServer(s.session, server.id);
    expect(needing.auth).toMatchObject({ status: "connected", scopes: ["tools"], needed_scopes: ["tools:write"] });

    // Reconnect: the new authorization asks for the granted scope and the new one together.
    expect((await connect(s.session, server.id)).outcome).toBe("connected");
    const { authorizations } = await as.record();
    expect(authorizations.map((a) => a.scopes)).toEqual([["tools"], ["tools", "tools:write"]]);
    const allowed = await readServer(s.session, server.id);
    expect(allowed.auth).toMatchObject({ scopes: ["tools", "tools:write"], needed_scopes: [] });

    // The same call again: it runs.
    await chat(s, "echo hi again");
    const tools = (await history(s)).filter((m): m is ToolMessage => m.role === "tool");
    expect(tools.at(-1)).toMatchObject({ tool: "guarded__echo", status: "success", result: "echo: hi" });
    expect((await as.record()).calls).toEqual([{ tool: "echo", args: { text: "hi" } }]);
  });

  it("never asks again for scopes the grant already holds (no authorization loop)", async () => {
    const as = await authorizationServer();
    const s = await signup();
    const server: McpServer = await addServer(s, { name: "stubborn", url: as.mcpUrl, auth: { type: "oauth" } });
    expect((await connect(s, server.id)).outcome).toBe("connected");
    const row = await getMcpServerRow(s.db, s.user.id, server.id);
    if (!row) throw new Error("row missing");
    const error = await scopeChallenge(s.db, row, "tools");
    expect(error).toBeInstanceOf(OAuthScopeRefused);
    expect(error.message).toBe(
      "stubborn refused access although the authorization holds the scopes it asks for (tools)",
    );
    expect((await readServer(s, server.id)).auth).toMatchObject({ status: "connected", needed_scopes: [] });
  });
});
