// Settings → Tools over HTTP: the user's MCP servers (add, read, change, delete) and a connection test
// that lists a server's tools. The secret goes in and never comes out; a URL the Worker may not fetch
// (outbound/policy.ts) is refused when it is saved, and again on every request made to it. An OAuth server is
// connected through …/oauth/start, the authorization server's redirect to /oauth/callback, and
// …/oauth/disconnect (d1/mcp-oauth.ts); its tokens never leave D1 but sealed.
import { type Context, Hono } from "hono";
import { SecretsKeyMissing } from "../../core/secret-box";
import { completeOAuth, disconnectOAuth, type OAuthDeps, startOAuth } from "../../d1/mcp-oauth";
import {
  createMcpServer,
  deleteMcpServer,
  endpointOf,
  getMcpServerRow,
  listMcpServers,
  type McpServerRow,
  recordMcpTest,
  type SaveRefusal,
  toMcpServer,
  updateMcpServer,
} from "../../d1/mcp-servers";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { outboundPolicy, refusedUrl } from "../../outbound/policy";
import {
  MAX_MCP_SERVERS,
  MCP_OAUTH_OUTCOME_PARAM,
  McpOAuthCallbackQuerySchema,
  type McpOAuthDisconnectResult,
  type McpOAuthOutcome,
  type McpOAuthStartResult,
  McpServerCreateSchema,
  McpServerPatchSchema,
  type McpTestResult,
} from "../../protocol";
import { ApiError, invalid, notFound } from "../errors";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readJson, readQuery } from "../validate";
import { oauthClientIdUrl, oauthRedirectUri } from "./oauth-client";

export const mcpServerRoutes = new Hono<AppEnv>();

type Ctx = Context<AppEnv>;

function refuseUrl(c: Ctx, url: string): void {
  const refused = refusedUrl(url, outboundPolicy(c.env));
  if (refused) throw invalid(`url: ${refused}`, { url: refused });
}

function refusal(reason: SaveRefusal, name?: string): ApiError {
  return reason === "name_taken"
    ? new ApiError(409, "conflict", `You already have a server named ${name}`, { name: "name is taken" })
    : new ApiError(409, "conflict", `At most ${MAX_MCP_SERVERS} MCP servers per user; delete one first`);
}

/** Sealing needs the Worker's SECRETS_KEY; without it a secret is refused, not stored in clear. */
async function sealing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SecretsKeyMissing) throw new ApiError(500, "internal", error.message);
    throw error;
  }
}

async function ownRow(c: Ctx): Promise<McpServerRow> {
  const row = await getMcpServerRow(c.var.shard, currentUser(c).id, c.req.param("id") ?? "");
  if (!row) throw notFound("No such MCP server");
  return row;
}

mcpServerRoutes.get("/", async (c) => c.json({ servers: await listMcpServers(c.var.shard, currentUser(c).id) }));

mcpServerRoutes.post("/", async (c) => {
  const input = await readJson(c, McpServerCreateSchema);
  refuseUrl(c, input.url);
  const saved = await sealing(() => createMcpServer(c.var.shard, currentUser(c).id, input, c.env.SECRETS_KEY));
  if ("refused" in saved) throw refusal(saved.refused, input.name);
  return c.json(saved.server, 201);
});

mcpServerRoutes.get("/:id", async (c) => c.json(toMcpServer(await ownRow(c))));

mcpServerRoutes.patch("/:id", async (c) => {
  const patch = await readJson(c, McpServerPatchSchema);
  const row = await ownRow(c);
  if (patch.url !== undefined) refuseUrl(c, patch.url);
  // A stolen session must not send the stored secret to a host of its choosing: a new origin needs it again.
  if (patch.url && row.sealedSecret && !patch.auth && new URL(patch.url).origin !== new URL(row.url).origin) {
    const problem = "give the authentication again when the URL moves to another host";
    throw invalid(`auth: ${problem}`, { auth: problem });
  }
  const saved = await sealing(() => updateMcpServer(c.var.shard, row, patch, c.env.SECRETS_KEY));
  if ("refused" in saved) throw refusal(saved.refused, patch.name);
  return c.json(saved.server);
});

mcpServerRoutes.delete("/:id", async (c) => {
  if (!(await deleteMcpServer(c.var.shard, currentUser(c).id, c.req.param("id")))) throw notFound("No such MCP server");
  return c.body(null, 204);
});

/** Connects, lists the tools and stores them (or the error in words) on the row. */
async function testServer(c: Ctx, row: McpServerRow): Promise<McpTestResult> {
  // Loaded on first use: the SDK's schemas cost every cold start otherwise (agent/tools/mcp.ts).
  const { describeMcpError, discoverTools, StreamableHTTPError } = await import("../../mcp/client");
  let outcome: { tools: { name: string; description: string; readOnly?: boolean }[] } | { error: string };
  try {
    const endpoint = await endpointOf(row, c.env.SECRETS_KEY, oauthDeps(c));
    outcome = { tools: await discoverTools(endpoint, outboundPolicy(c.env), c.req.raw.signal) };
  } catch (error) {
    // A server without credentials that answers with an OAuth challenge is switched to OAuth: Connect.
    if (row.authType === "none" && error instanceof StreamableHTTPError && error.code === 401) {
      const switched = await switchToOAuth(c, row);
      if (switched) return { ok: false, error: switched.auth.type === "oauth" ? OAUTH_NEEDED : null, server: switched };
    }
    outcome = { error: describeMcpError(error) };
  }
  const server = await recordMcpTest(c.var.shard, row, outcome);
  return { ok: "tools" in outcome, error: "error" in outcome ? outcome.error : null, server };
}

const OAUTH_NEEDED = "the server requires OAuth authorization; connect it";

async function switchToOAuth(c: Ctx, row: McpServerRow) {
  const { probeOAuth } = await import("../../mcp/oauth");
  if (!(await probeOAuth(row.url, outboundPolicy(c.env)))) return undefined;
  const saved = await updateMcpServer(c.var.shard, row, { auth: { type: "oauth" } }, c.env.SECRETS_KEY);
  if ("refused" in saved) return undefined;
  const updated = await getMcpServerRow(c.var.shard, row.userId, row.id);
  return updated ? recordMcpTest(c.var.shard, updated, { error: OAUTH_NEEDED }) : undefined;
}

mcpServerRoutes.post("/:id/test", async (c) => c.json(await testServer(c, await ownRow(c))));

const oauthDeps = (c: Ctx): OAuthDeps => ({
  db: c.var.shard,
  secretsKey: c.env.SECRETS_KEY,
  policy: outboundPolicy(c.env),
});

function oauthRow(row: McpServerRow): McpServerRow {
  if (row.authType !== "oauth")
    throw new ApiError(409, "conflict", `${row.name} does not use OAuth; set its authentication to OAuth first`);
  return row;
}

mcpServerRoutes.post("/:id/oauth/start", async (c) => {
  const row = oauthRow(await ownRow(c));
  const { OAuthFlowError, errorText } = await import("../../mcp/oauth");
  try {
    const urls = { redirectUri: oauthRedirectUri(c), clientIdUrl: oauthClientIdUrl(c) };
    const url = await sealing(() => startOAuth(oauthDeps(c), row, urls));
    const result: McpOAuthStartResult = { authorization_url: url };
    return c.json(result);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = error instanceof OAuthFlowError ? error.message : errorText(error);
    throw new ApiError(409, "conflict", `Could not start connecting ${row.name}: ${reason}`);
  }
});

/**
 * The authorization server sends the browser here (the popup, or the tab). A state that is not this
 * user's pending one for the server is refused (400) and changes nothing; otherwise the browser goes
 * back to /settings/tools, whose page tells its opener and closes. No page is built from the request.
 */
mcpServerRoutes.get("/oauth/callback", async (c) => {
  const query = readQuery(c, McpOAuthCallbackQuerySchema);
  const done = await sealing(() => completeOAuth(oauthDeps(c), currentUser(c).id, query));
  if ("refused" in done) {
    const problem = "not a pending authorization of yours (unknown, already used or expired)";
    throw invalid(`state: ${problem}`, { state: problem });
  }
  let outcome: McpOAuthOutcome = done.outcome;
  // The state is spent: the row says why in words, and Connect starts a new authorization.
  if (outcome === "failed")
    await recordMcpTest(c.var.shard, done.row, {
      error: `connecting failed: ${done.error}; connect it again to retry`,
    });
  // Connected: list its tools now, so Settings shows them as the popup closes.
  if (outcome === "connected" && !(await testServer(c, done.row)).ok) outcome = "failed";
  // A GET that stored tokens: the user's live conversations read them afresh (user-changes.ts).
  await tellUserChanged(c.env, ownerOf(c), "settings");
  const back = new URLSearchParams({ [MCP_OAUTH_OUTCOME_PARAM]: outcome, server: done.row.id });
  return c.redirect(`/settings/tools?${back}`, 302);
});

mcpServerRoutes.post("/:id/oauth/disconnect", async (c) => {
  const row = oauthRow(await ownRow(c));
  const done = await disconnectOAuth(oauthDeps(c), row);
  const result: McpOAuthDisconnectResult = { revoked: done.revoked, server: toMcpServer(done.row) };
  return c.json(result);
});
