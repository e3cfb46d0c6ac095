// Settings → Tools over HTTP (issue 14): the user's MCP servers, their write-only secrets sealed at rest,
// the outbound URL policy, ownership, and a connection test against a real MCP server on 127.0.0.1.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { openSecret, SecretsKeyMissing, sealSecret } from "../../core/secret-box";
import { endpointOf, getMcpServerRow } from "../../d1/mcp-servers";
import { MAX_MCP_SERVERS, type McpServer, type McpTestResult } from "../../protocol";
import { MCP_TEST_TOKEN } from "../support/mcp-calls";
import { api, type Session, signup } from "./helpers";

const mcpUrl = inject("mcpUrl");
const mcpTokenUrl = inject("mcpTokenUrl");

async function addServer(session: Session, body: Record<string, unknown>): Promise<Response> {
  return api("/api/mcp-servers", { method: "POST", json: body, headers: session.headers });
}

async function added(session: Session, body: Record<string, unknown>): Promise<McpServer> {
  const res = await addServer(session, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const testServer = async (session: Session, id: string) => {
  const res = await api(`/api/mcp-servers/${id}/test`, { method: "POST", headers: session.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as McpTestResult;
};

describe("MCP servers: saving and reading", () => {
  it("saves a server with a bearer token that no answer ever contains, and finds its tools", async () => {
    const s = await signup();
    const server = await added(s, { name: "local", url: mcpTokenUrl, auth: { type: "bearer", token: MCP_TEST_TOKEN } });
    expect(server).toMatchObject({ name: "local", url: mcpTokenUrl, enabled: true, auth: { type: "bearer" } });
    expect(server.tools).toEqual([]);

    const tested = await testServer(s, server.id);
    expect(tested.ok, tested.error ?? "").toBe(true);
    expect(tested.server.tools.map((t) => t.qualified_name)).toEqual([
      "local__big",
      "local__echo",
      "local__fail",
      "local__forge",
      "local__hang",
      "local__lookup",
    ]);
    expect(tested.server.tools.find((t) => t.name === "echo")?.description).toContain("Echoes");
    expect(tested.server.checked_at).not.toBeNull();

    // Neither the list, the server, nor the test's answer holds the token; the stored row holds it sealed.
    const list = await (await api("/api/mcp-servers", { headers: s.headers })).text();
    const one = await (await api(`/api/mcp-servers/${server.id}`, { headers: s.headers })).text();
    for (const text of [JSON.stringify(server), JSON.stringify(tested), list, one])
      expect(text).not.toContain(MCP_TEST_TOKEN);
    const row = await getMcpServerRow(s.db, s.user.id, server.id);
    expect(row?.sealedSecret).toMatch(/^v1\./);
    expect(row?.sealedSecret).not.toContain(MCP_TEST_TOKEN);
    expect(atob(row?.sealedSecret?.split(".")[2] ?? "")).not.toContain(MCP_TEST_TOKEN);
  });

  it("reports a failed connection test in plain words and keeps the server", async () => {
    const s = await signup();
    const wrong = await added(s, { name: "wrong", url: mcpTokenUrl, auth: { type: "bearer", token: "not-the-token" } });
    const tested = await testServer(s, wrong.id);
    expect(tested.ok).toBe(false);
    expect(tested.error).toMatch(/401/);
    expect(tested.server.last_error).toBe(tested.error);

    const down = await added(s, { name: "down", url: "http://127.0.0.1:1/mcp" });
    const result = await testServer(s, down.id);
    expect(result.ok).toBe(false);
    // Settings shows "Could not connect: <error>": the error is the reason, not those words again.
    expect(result.error).toMatch(/^the server could not be reached \(/);
  });

  it("sends a custom header with its value, and lets tools be switched off", async () => {
    const s = await signup();
    const server = await added(s, {
      name: "hdr",
      url: mcpUrl,
      auth: { type: "header", name: "X-Api-Key", value: "key-123" },
    });
    expect(server.auth).toEqual({ type: "header", name: "X-Api-Key" });
    await testServer(s, server.id);
    const res = await api(`/api/mcp-servers/${server.id}`, {
      method: "PATCH",
      json: { disabled_tools: ["hang", "big"] },
      headers: s.headers,
    });
    expect(res.status).toBe(200);
    const patched = (await res.json()) as McpServer;
    expect(patched.tools.filter((t) => !t.enabled).map((t) => t.name)).toEqual(["big", "hang"]);
    const row = await getMcpServerRow(s.db, s.user.id, server.id);
    if (!row) throw new Error("the server's row is gone");
    const endpoint = await endpointOf(row, env.SECRETS_KEY);
    expect(endpoint.headers).toEqual({ "X-Api-Key": "key-123" });
  });
});

describe("MCP servers: what is refused", () => {
  it.each([
    [{ name: "Bad Name", url: "https://mcp.example.com/mcp" }, "name"],
    [{ name: "a__b", url: "https://mcp.example.com/mcp" }, "name"],
    [{ name: "ok", url: "not a url" }, "url"],
    [{ name: "ok", url: "ftp://mcp.example.com/mcp" }, "url"],
    [{ name: "ok", url: "http://mcp.example.com/mcp" }, "url"],
    [{ name: "ok", url: "https://10.0.0.8/mcp" }, "url"],
    [{ name: "ok", url: "https://169.254.169.254/latest" }, "url"],
    [{ name: "ok", url: "https://[fd00::1]/mcp" }, "url"],
    [{ name: "ok", url: "https://[::ffff:192.168.0.1]/mcp" }, "url"],
    [{ name: "ok", url: "https://printer.local/mcp" }, "url"],
    [{ name: "ok", url: "https://user:pw@mcp.example.com/mcp" }, "url"],
    [{ name: "ok", url: "https://mcp.example.com/mcp", auth: { type: "bearer", token: "" } }, "auth.token"],
    [
      { name: "ok", url: "https://mcp.example.com/mcp", auth: { type: "header", name: "Host", value: "x" } },
      "auth.name",
    ],
    [{ name: "ok", url: "https://mcp.example.com/mcp", extra: 1 }, "extra"],
  ])("refuses %j naming %s, and saves nothing", async (body, field) => {
    const s = await signup();
    const res = await addServer(s, body);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(error.code).toBe("invalid_input");
    expect(Object.keys(error.fields)).toContain(field);
    const list = (await (await api("/api/mcp-servers", { headers: s.headers })).json()) as { servers: unknown[] };
    expect(list.servers).toEqual([]);
  });

  it("answers 404 for another user's server on every route, and lists only one's own", async () => {
    const owner = await signup();
    const other = await signup();
    const server = await added(owner, { name: "mine", url: mcpUrl });
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { enabled: false }],
      ["DELETE", "", undefined],
      ["POST", "/test", undefined],
    ] as const) {
      const res = await api(`/api/mcp-servers/${server.id}${path}`, { method, json, headers: other.headers });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const list = (await (await api("/api/mcp-servers", { headers: other.headers })).json()) as { servers: unknown[] };
    expect(list.servers).toEqual([]);
    const still = (await (await api(`/api/mcp-servers/${server.id}`, { headers: owner.headers })).json()) as McpServer;
    expect(still.enabled).toBe(true);
  });

  it("refuses a second server of the same name and more than the cap, even when requests race", async () => {
    const s = await signup();
    await added(s, { name: "dup", url: mcpUrl });
    const again = await addServer(s, { name: "dup", url: mcpUrl });
    expect(again.status).toBe(409);
    const racing = await Promise.all(
      Array.from({ length: MAX_MCP_SERVERS + 5 }, (_, i) => addServer(s, { name: `s${i}`, url: mcpUrl })),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(MAX_MCP_SERVERS - 1);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(6);
    const list = (await (await api("/api/mcp-servers", { headers: s.headers })).json()) as { servers: unknown[] };
    expect(list.servers).toHaveLength(MAX_MCP_SERVERS);
  });

  it("will not move a stored secret to another host unless it is given again", async () => {
    const s = await signup();
    const server = await added(s, {
      name: "moving",
      url: mcpTokenUrl,
      auth: { type: "bearer", token: MCP_TEST_TOKEN },
    });
    const moved = await api(`/api/mcp-servers/${server.id}`, {
      method: "PATCH",
      json: { url: "https://attacker.example.com/mcp" },
      headers: s.headers,
    });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { error: { fields: Record<string, string> } }).error.fields).toHaveProperty("auth");
    const unchanged = (await (await api(`/api/mcp-servers/${server.id}`, { headers: s.headers })).json()) as McpServer;
    expect(unchanged.url).toBe(mcpTokenUrl);

    // The same host on another path keeps the secret; a new host with new auth is fine.
    const samePlace = await api(`/api/mcp-servers/${server.id}`, {
      method: "PATCH",
      json: { url: `${mcpTokenUrl}?v=2` },
      headers: s.headers,
    });
    expect(samePlace.status).toBe(200);
    const withAuth = await api(`/api/mcp-servers/${server.id}`, {
      method: "PATCH",
      json: { url: "https://mcp.example.com/mcp", auth: { type: "none" } },
      headers: s.headers,
    });
    expect(withAuth.status).toBe(200);
    expect(((await withAuth.json()) as McpServer).auth).toEqual({ type: "none" });
  });

  it("deletes a server", async () => {
    const s = await signup();
    const server = await added(s, { name: "gone", url: mcpUrl });
    expect((await api(`/api/mcp-servers/${server.id}`, { method: "DELETE", headers: s.headers })).status).toBe(204);
    expect((await api(`/api/mcp-servers/${server.id}`, { headers: s.headers })).status).toBe(404);
  });

  it("refuses a cookie-bearing write from another origin", async () => {
    const s = await signup();
    const res = await api("/api/mcp-servers", {
      method: "POST",
      json: { name: "csrf", url: mcpUrl },
      headers: { ...s.headers, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });
});

describe("secret box", () => {
  it("opens only with the same key and the same binding, and refuses to seal without a key", async () => {
    const key = "k".repeat(40);
    const sealed = await sealSecret(key, "s3cret", "row-1");
    expect(sealed).not.toContain("s3cret");
    expect(await openSecret(key, sealed, "row-1")).toBe("s3cret");
    await expect(openSecret(key, sealed, "row-2")).rejects.toThrow();
    await expect(openSecret("j".repeat(40), sealed, "row-1")).rejects.toThrow();
    await expect(sealSecret(undefined, "s3cret", "row-1")).rejects.toBeInstanceOf(SecretsKeyMissing);
    await expect(sealSecret("short", "s3cret", "row-1")).rejects.toBeInstanceOf(SecretsKeyMissing);
    // Two seals of one secret differ (fresh IV), so equal secrets cannot be spotted in the table.
    expect(await sealSecret(key, "s3cret", "row-1")).not.toBe(sealed);
  });

  it("seals and opens a value of any size (a 1 MiB one overflowed the stack)", async () => {
    const key = "k".repeat(40);
    const large = "é".repeat(512 * 1024);
    expect(await openSecret(key, await sealSecret(key, large, "row-1"), "row-1")).toBe(large);
  });
});
