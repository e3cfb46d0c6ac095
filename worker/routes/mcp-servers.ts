// Settings → Tools over HTTP: the user's MCP servers (add, read, change, delete) and a connection test
// that lists a server's tools. The secret goes in and never comes out; a URL the Worker may not fetch
// (outbound.ts) is refused when it is saved, and again on every request made to it.
import { type Context, Hono } from "hono";
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
import { SecretsKeyMissing } from "../../d1/secret-box";
import { outboundPolicy, refusedUrl } from "../../mcp/outbound";
import { MAX_MCP_SERVERS, McpServerCreateSchema, McpServerPatchSchema, type McpTestResult } from "../../protocol";
import { ApiError, invalid, notFound } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

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
  const row = await getMcpServerRow(c.env.DB, currentUser(c).id, c.req.param("id") ?? "");
  if (!row) throw notFound("No such MCP server");
  return row;
}

mcpServerRoutes.get("/", async (c) => c.json({ servers: await listMcpServers(c.env.DB, currentUser(c).id) }));

mcpServerRoutes.post("/", async (c) => {
  const input = await readJson(c, McpServerCreateSchema);
  refuseUrl(c, input.url);
  const saved = await sealing(() => createMcpServer(c.env.DB, currentUser(c).id, input, c.env.SECRETS_KEY));
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
  const saved = await sealing(() => updateMcpServer(c.env.DB, row, patch, c.env.SECRETS_KEY));
  if ("refused" in saved) throw refusal(saved.refused, patch.name);
  return c.json(saved.server);
});

mcpServerRoutes.delete("/:id", async (c) => {
  if (!(await deleteMcpServer(c.env.DB, currentUser(c).id, c.req.param("id")))) throw notFound("No such MCP server");
  return c.body(null, 204);
});

mcpServerRoutes.post("/:id/test", async (c) => {
  const row = await ownRow(c);
  // Loaded on first use: the SDK's schemas cost every cold start otherwise (agent/tools/mcp.ts).
  const { describeMcpError, discoverTools } = await import("../../mcp/client");
  let outcome: { tools: { name: string; description: string }[] } | { error: string };
  try {
    const endpoint = await endpointOf(row, c.env.SECRETS_KEY);
    outcome = { tools: await discoverTools(endpoint, outboundPolicy(c.env), c.req.raw.signal) };
  } catch (error) {
    outcome = { error: describeMcpError(error) };
  }
  const server = await recordMcpTest(c.env.DB, row, outcome);
  const result: McpTestResult = { ok: "tools" in outcome, error: "error" in outcome ? outcome.error : null, server };
  return c.json(result);
});
