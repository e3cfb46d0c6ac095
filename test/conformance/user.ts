// The user in the official MCP conformance suite's client mode (test/conformance/): the client the suite
// judges is the real Worker, and this plays the person in front of it, one scenario at a time, for the
// suite's command (driver.mjs). It signs a user up on the app, adds the scenario's server as Settings →
// Tools does (with the client ID and secret the scenario pre-registered, where it did), lets its tools run
// without asking, tests it, connects it when the Worker asks for OAuth (the authorization server approves
// at once: this follows its redirect and calls the Worker's callback with the user's cookie), and, for a
// scenario whose checks need a tool call, runs one turn in which the fake model calls that tool, answering
// an elicitation as a user who accepts the card with its defaults. A server that wants authorization
// again after the turn (more scopes) is connected again and the turn retried, as a user would, at most
// three authorizations in all. The outcome says where the Worker stopped short of what the scenario
// needs; the suite's checks, not this outcome, decide the score.
import { z } from "zod";
import { MCP_OAUTH_OUTCOME_PARAM, qualifiedToolName } from "../../protocol/mcp.ts";
import { type Client, type Frame, openSocket, signUp } from "../e2e/api-client.ts";
import { marker, scriptModel } from "../support/fake-openai-client.ts";

/** The tool a scenario's checks need called, and its arguments; the other scenarios need no turn. */
type ToolCall = { tool: string; args: Record<string, unknown> };
const TOOL_CALLS: Record<string, ToolCall> = {
  tools_call: { tool: "add_numbers", args: { a: 2, b: 3 } },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
  "sse-retry": { tool: "test_reconnection", args: {} },
  "auth/scope-step-up": { tool: "test-tool", args: {} },
};

/** A user approves at most this many authorizations of one server before giving up (auth/scope-retry-limit). */
const MAX_AUTHORIZATIONS = 3;
const TURN_TIMEOUT_MS = 20_000;
const SERVER_NAME = "conf";

const ContextSchema = z.looseObject({ client_id: z.string().optional(), client_secret: z.string().optional() });

/**
 * What the script reads of a server (protocol/mcp.ts McpServerSchema): an OAuth server that is not
 * connected, or is but lacks scopes a call asked for (`needed_scopes`, where the Worker has it), wants
 * the user to connect it again.
 */
const McpServerSchema = z.object({
  id: z.string(),
  last_error: z.string().nullable(),
  auth: z.looseObject({
    type: z.string(),
    status: z.string().optional(),
    needed_scopes: z.array(z.string()).optional(),
  }),
});
type McpServer = z.infer<typeof McpServerSchema>;
const McpTestResultSchema = z.object({ ok: z.boolean(), error: z.string().nullable(), server: McpServerSchema });

class Stuck extends Error {}

/** What the user does and sees, a line a step. */
type Log = (line: string) => void;

async function api<T>(user: Client, method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  const res = await fetch(`${user.origin}${path}`, {
    method,
    headers: user.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Stuck(`${method} ${path}: ${res.status} ${text}`);
  return schema.parse(text ? JSON.parse(text) : null);
}

/** Adds the scenario's server as Settings → Tools does: with a pre-registered OAuth client when given. */
async function addServer(user: Client, url: string, contextJson: string | undefined): Promise<McpServer> {
  const context = ContextSchema.parse(JSON.parse(contextJson ?? "{}"));
  const auth = context.client_id
    ? { type: "oauth", client_id: context.client_id, client_secret: context.client_secret }
    : { type: "none" };
  const server = await api(user, "POST", "/api/mcp-servers", McpServerSchema, { name: SERVER_NAME, url, auth });
  // Its tools run without an approval card: what the suite judges is the MCP client, not approvals.
  await api(user, "PUT", "/api/tool-approvals", z.unknown(), { tool: `mcp:${server.id}:*`, mode: "allow" });
  return server;
}

const needsAuthorization = ({ auth }: McpServer) =>
  auth.type === "oauth" && (auth.status !== "connected" || (auth.needed_scopes ?? []).length > 0);

/**
 * Connect (or Reconnect): the Worker's authorization URL, the authorization server's redirect back (it
 * approves without asking), and that redirect's callback on the Worker with the user's session.
 */
async function connect(user: Client, server: McpServer, log: Log): Promise<McpServer> {
  const started = await api(
    user,
    "POST",
    `/api/mcp-servers/${server.id}/oauth/start`,
    z.object({ authorization_url: z.string() }),
  );
  const approved = await fetch(started.authorization_url, { redirect: "manual" });
  const callback = approved.headers.get("location");
  if (!callback) throw new Stuck(`the authorization server answered ${approved.status} without a redirect`);
  const back = await fetch(callback, { headers: { cookie: user.cookie }, redirect: "manual" });
  const outcome = new URL(back.headers.get("location") ?? "/", user.origin).searchParams.get(MCP_OAUTH_OUTCOME_PARAM);
  log(`callback: ${back.status} ${outcome ?? "no outcome"}`);
  const connected = await api(user, "GET", `/api/mcp-servers/${server.id}`, McpServerSchema);
  // Settings shows a failed connection in words; trying again would fail the same way.
  if (outcome !== "connected")
    throw new Stuck(`the callback answered ${back.status}, ${outcome ?? "no outcome"}: ${connected.last_error ?? "-"}`);
  return connected;
}

/** How a turn's call of `tool` ended: its result, or its error. */
type CallOutcome = { ok: true } | { ok: false; error: string };

/** One turn in a conversation of its own where the model calls `tool`; elicitations accepted with the defaults. */
async function turnCalling(user: Client, llmUrl: string, call: ToolCall, log: Log): Promise<CallOutcome> {
  const { tool, args } = call;
  const key = `conformance-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  await scriptModel(llmUrl, key, [{ tool_calls: [{ name: tool, arguments: args }] }, { text: "Done." }]);
  const socket = await openSocket(user, await user.createConversation());
  try {
    socket.ws.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data)) as Frame;
      if (frame.type !== "elicitation_request") return;
      log(`elicitation (${String(frame.mode)}): accepted with the defaults`);
      // An empty answer: the Worker fills in the schema's defaults, as a card accepted as it was shown.
      socket.send({
        type: "elicitation_response",
        elicitation_id: frame.elicitation_id,
        action: "accept",
        content: {},
      });
    });
    socket.send({ type: "chat", content: `Call ${tool} ${marker(key)}` });
    await socket.until((f) => f.type === "response_complete", { timeoutMs: TURN_TIMEOUT_MS });
    const ended = socket.frames.find((f) => (f.type === "tool_complete" || f.type === "tool_error") && f.tool === tool);
    if (ended?.type === "tool_complete") return { ok: true };
    return { ok: false, error: ended ? String(ended.error) : "the tool was not called" };
  } finally {
    socket.ws.close();
  }
}

/** One scenario as the suite's command hands it over: its name, its server and its context (JSON). */
export interface ScenarioRequest {
  scenario: string;
  serverUrl: string;
  context?: string;
}

/** Plays the user through `request` on the app at `appUrl` (its model the fake at `llmUrl`). */
export async function playScenario(
  { appUrl, llmUrl }: { appUrl: string; llmUrl: string },
  request: ScenarioRequest,
  log: Log,
): Promise<{ ok: boolean }> {
  try {
    await play(appUrl, llmUrl, request, log);
    log("done");
    return { ok: true };
  } catch (error) {
    const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : "";
    log(
      `stuck: ${error instanceof Stuck ? error.message : error instanceof Error ? `${error.stack}${cause}` : String(error)}`,
    );
    return { ok: false };
  }
}

async function play(appUrl: string, llmUrl: string, { scenario, serverUrl, context }: ScenarioRequest, log: Log) {
  const user = await signUp(appUrl);
  let server = await addServer(user, serverUrl, context);
  const tested = await api(user, "POST", `/api/mcp-servers/${server.id}/test`, McpTestResultSchema);
  log(`test: ok=${tested.ok} error=${tested.error ?? "-"} auth=${JSON.stringify(tested.server.auth)}`);
  server = tested.server;

  let authorizations = 0;
  const connectWhileNeeded = async () => {
    while (needsAuthorization(server) && authorizations < MAX_AUTHORIZATIONS) {
      authorizations++;
      server = await connect(user, server, log);
      log(`authorization ${authorizations}: ${JSON.stringify(server.auth)} last_error=${server.last_error ?? "-"}`);
    }
  };
  await connectWhileNeeded();
  if (needsAuthorization(server)) throw new Stuck(`still not connected after ${authorizations} authorizations`);
  if (server.last_error) throw new Stuck(`the server's test failed: ${server.last_error}`);

  const call = TOOL_CALLS[scenario];
  if (!call) return;
  const tool = qualifiedToolName(SERVER_NAME, call.tool);
  for (;;) {
    const outcome = await turnCalling(user, llmUrl, { tool, args: call.args }, log);
    log(`turn calling ${tool}: ${outcome.ok ? "ok" : outcome.error}`);
    if (outcome.ok) return;
    server = await api(user, "GET", `/api/mcp-servers/${server.id}`, McpServerSchema);
    if (!needsAuthorization(server) || authorizations >= MAX_AUTHORIZATIONS)
      throw new Stuck(`the call failed: ${outcome.error}`);
    await connectWhileNeeded();
  }
}
