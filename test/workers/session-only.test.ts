// What guards the user's safety is changed from a signed-in session only (docs/protocol.md "API tokens"):
// a leaked API token cannot switch "Ask first" off, add, repoint, test or delete an MCP server or a model
// provider, or publish or withdraw a share (the token routes' own tests are in auth.test.ts). Each guarded
// route: the token gets 403 `session_required` and nothing changes; the session, same request, reaches the
// route. A token still reads what holds no secret. On a socket opened with a token, "Always allow" (which
// saves a rule) is refused the same way; approving the one call is not.
import { describe, expect, inject, it } from "vitest";
import type { ToolApprovals } from "../../protocol";
import { marker } from "../support/fake-openai-client";
import { api, connect, createConversation, type Session, signup } from "./helpers";
import { scenario } from "./turn-helpers";

const mcpUrl = inject("mcpUrl");
const llmUrl = `${inject("llmUrl")}/v1`;

interface World {
  session: Session;
  bearer: Record<string, string>;
  conversation: string;
  server: string;
  provider: string;
  share: string;
}

async function created(res: Response): Promise<{ id: string }> {
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** A user with an API token, a conversation, an MCP server, a provider and a share link. */
async function world(): Promise<World> {
  const session = await signup();
  const post = (path: string, json: unknown) => api(path, { method: "POST", json, headers: session.headers });
  const { token } = (await (await post("/api/tokens", { name: "script" })).json()) as { token: string };
  const conversation = (await createConversation(session)).id;
  const server = (await created(await post("/api/mcp-servers", { name: "local", url: mcpUrl }))).id;
  const provider = (await created(await post("/api/providers", { name: "Local", base_url: llmUrl }))).id;
  const share = (await created(await post(`/api/conversations/${conversation}/shares`, {}))).id;
  return { session, bearer: { Authorization: `Bearer ${token}` }, conversation, server, provider, share };
}

type Guarded = {
  route: string;
  /** The request, the same for the token and the session. */
  request: (w: World) => { path: string; method: string; json?: unknown };
  /** What the session's request answers: it reached the route. */
  status: number;
  /** Where to see that the token's request changed nothing. */
  list: string;
};

const GUARDED: Guarded[] = [
  {
    route: "PUT /api/tool-approvals",
    request: (w) => ({
      path: "/api/tool-approvals",
      method: "PUT",
      json: { tool: `mcp:${w.server}:*`, mode: "allow" },
    }),
    status: 200,
    list: "/api/tool-approvals",
  },
  {
    route: "POST /api/mcp-servers",
    request: () => ({ path: "/api/mcp-servers", method: "POST", json: { name: "another", url: mcpUrl } }),
    status: 201,
    list: "/api/mcp-servers",
  },
  {
    route: "PATCH /api/mcp-servers/:id",
    request: (w) => ({ path: `/api/mcp-servers/${w.server}`, method: "PATCH", json: { enabled: false } }),
    status: 200,
    list: "/api/mcp-servers",
  },
  {
    route: "DELETE /api/mcp-servers/:id",
    request: (w) => ({ path: `/api/mcp-servers/${w.server}`, method: "DELETE" }),
    status: 204,
    list: "/api/mcp-servers",
  },
  {
    route: "POST /api/mcp-servers/:id/test",
    request: (w) => ({ path: `/api/mcp-servers/${w.server}/test`, method: "POST" }),
    status: 200,
    list: "/api/mcp-servers",
  },
  // The server does not use OAuth: the session's request reaches the route, which says so (409).
  {
    route: "POST /api/mcp-servers/:id/oauth/start",
    request: (w) => ({ path: `/api/mcp-servers/${w.server}/oauth/start`, method: "POST" }),
    status: 409,
    list: "/api/mcp-servers",
  },
  {
    route: "POST /api/mcp-servers/:id/oauth/disconnect",
    request: (w) => ({ path: `/api/mcp-servers/${w.server}/oauth/disconnect`, method: "POST" }),
    status: 409,
    list: "/api/mcp-servers",
  },
  {
    route: "POST /api/providers",
    request: () => ({ path: "/api/providers", method: "POST", json: { name: "Elsewhere", base_url: llmUrl } }),
    status: 201,
    list: "/api/providers",
  },
  {
    route: "PATCH /api/providers/:id",
    request: (w) => ({ path: `/api/providers/${w.provider}`, method: "PATCH", json: { name: "Renamed" } }),
    status: 200,
    list: "/api/providers",
  },
  {
    route: "DELETE /api/providers/:id",
    request: (w) => ({ path: `/api/providers/${w.provider}`, method: "DELETE" }),
    status: 204,
    list: "/api/providers",
  },
  {
    route: "POST /api/providers/:id/test",
    request: (w) => ({ path: `/api/providers/${w.provider}/test`, method: "POST" }),
    status: 200,
    list: "/api/providers",
  },
  {
    route: "POST /api/conversations/:id/shares",
    request: (w) => ({ path: `/api/conversations/${w.conversation}/shares`, method: "POST", json: {} }),
    status: 201,
    list: "/api/shares",
  },
  {
    route: "DELETE /api/shares/:id",
    request: (w) => ({ path: `/api/shares/${w.share}`, method: "DELETE" }),
    status: 204,
    list: "/api/shares",
  },
];

describe("settings that guard the user's safety take a signed-in session", () => {
  it.each(GUARDED)("$route: an API token gets 403 session_required, a session gets through", async (guarded) => {
    const w = await world();
    const { path, ...init } = guarded.request(w);
    const listed = async () => (await api(guarded.list, { headers: w.session.headers })).text();
    const before = await listed();

    const byToken = await api(path, { ...init, headers: w.bearer });
    expect(byToken.status).toBe(403);
    expect(await byToken.json()).toMatchObject({ error: { code: "session_required" } });
    expect(await listed()).toBe(before);

    const bySession = await api(path, { ...init, headers: w.session.headers });
    expect(bySession.status, await bySession.clone().text()).toBe(guarded.status);
  });

  it("lets a token read what holds no secret: the approval rules, MCP servers, providers and shares", async () => {
    const w = await world();
    for (const path of ["/api/tool-approvals", "/api/mcp-servers", "/api/providers", "/api/shares"])
      expect((await api(path, { headers: w.bearer })).status, path).toBe(200);
  });
});

describe("a socket opened with an API token", () => {
  it("approves a waiting call, but cannot make it a rule with Always allow", async () => {
    const s = await scenario([{ tool_calls: [{ name: "task_create", arguments: { title: "x" } }] }, { text: "Done." }]);
    const rules = async () =>
      ((await (await api("/api/tool-approvals", { headers: s.session.headers })).json()) as ToolApprovals).rules;
    const ask = { tool: "task_create", mode: "ask" };
    expect((await api("/api/tool-approvals", { method: "PUT", json: ask, headers: s.session.headers })).status).toBe(
      200,
    );
    const minted = await api("/api/tokens", { method: "POST", json: { name: "script" }, headers: s.session.headers });
    const { token } = (await minted.json()) as { token: string };
    const script = await connect({ headers: { Authorization: `Bearer ${token}` } }, s.conversationId);

    script.send({ type: "chat", content: `make a task ${marker(s.key)}` });
    const asked = await script.next("tool_approval_request");
    script.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve", always_allow: true });
    expect(await script.next("error")).toMatchObject({ code: "session_required" });
    expect(await rules()).toEqual([ask]);

    script.send({ type: "tool_approval", call_id: asked.call_id, decision: "approve" });
    expect(await script.next("tool_approval_result")).toMatchObject({ decision: "approved" });
    expect((await script.next("response_complete")).termination_reason).toBe("completed");
    expect(await rules()).toEqual([ask]);
    script.close();
    s.socket.close();
  });
});
