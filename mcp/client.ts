// One connection to a user's MCP server with the official SDK's client over Streamable HTTP, through the
// guarded fetch (outbound/policy.ts): initialize, list the tools (every page, up to a cap), call a tool, close.
// The Worker uses it to test a server from Settings; a conversation's object, to run a turn's tools.
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { guardedFetch, type OutboundPolicy, OutboundRefused } from "../outbound/policy";
import { clipped, OAuthWords } from "./oauth-rules";
import { BoundedJsonSchemaValidator } from "./tool-schema";

export { StreamableHTTPError };

/** Where and how to reach a server; `headers` carries its decrypted secret, and lives only in memory. */
export interface McpEndpoint {
  name: string;
  url: string;
  headers: Record<string, string>;
  /**
   * An OAuth server's: new headers after the server answered 401 (the access token refreshed), or an
   * OAuthAuthorizationNeeded when only the user can mend it. Called at most once per connection.
   */
  reauthorize?: () => Promise<Record<string, string>>;
  /**
   * An OAuth server's: a request answered 403 `insufficient_scope` naming `scope` (space-separated).
   * Keeps what the grant lacks for the user to allow, and gives the error the request ends with, in words.
   */
  stepUp?: (scope: string | undefined) => Promise<Error>;
}

/** A tool as the server describes it. */
export interface DiscoveredTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema, per the MCP spec). */
  inputSchema: Record<string, unknown>;
  /**
   * The server's annotations: `readOnlyHint` (the tool changes nothing) and `idempotentHint` (calling it
   * again with the same arguments does nothing more). A call cut short by a restart is re-run only then.
   */
  readOnly?: boolean;
  idempotent?: boolean;
}

/** Tools taken from one server: the model's tool list has a limit (OpenAI: 128) and every tool costs tokens. */
export const MAX_TOOLS_PER_SERVER = 40;
const MAX_PAGES = 10;
/** Connecting and listing: a server that does not answer in this time counts as down. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Answers a server's `elicitation/create` made during a call (agent/tools/elicitation.ts). */
export type ElicitHandler = (params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** Who answers the server if it asks the user during this call; absent, it is declined. */
  onElicit?: ElicitHandler;
}

/**
 * How long the SDK itself lets a call run that may ask the user: its timer cannot pause while the user
 * answers, so the caller's own (a TurnClock, agent/tools/executor.ts) is the limit, and cancels through `signal`.
 */
const ELICITING_CALL_CEILING_MS = 24 * 60 * 60 * 1000;

export interface McpSession {
  readonly endpoint: McpEndpoint;
  listTools(signal?: AbortSignal): Promise<DiscoveredTool[]>;
  callTool(name: string, args: unknown, options: CallOptions): Promise<CallToolResult>;
  close(): Promise<void>;
}

const HTTP_HINTS: Record<number, string> = {
  401: "the server refused the credentials",
  403: "the server refused access",
  404: "no MCP endpoint at this URL",
  405: "this URL does not speak MCP over Streamable HTTP",
};

/** Plain words for what went wrong, for a System message or Settings: no stack, no SDK class names. */
export function describeMcpError(error: unknown): string {
  if (error instanceof OAuthWords) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  if (status && status >= 400) return `${HTTP_HINTS[status] ?? "the server answered an error"} (HTTP ${status})`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
  if (error instanceof OutboundRefused) return message;
  // Settings puts "Could not connect:" before it: the reason, not the same words again.
  if (/fetch failed|ECONNREFUSED|connect|network/i.test(message)) return `the server could not be reached (${message})`;
  // The server's own words: kept on the row and shown, so cut.
  return clipped(message.replace(/^(MCP error -?\d+|Streamable HTTP error): /, ""));
}

/** How long closing a connection waits for cancellation notices still on their way to the server. */
const CANCEL_NOTICE_GRACE_MS = 2_000;

/**
 * The SDK's transport, except that closing it first lets any `notifications/cancelled` already sent
 * reach the server: the SDK sends that notice when a call's signal aborts (Stop), and a turn that ends
 * on Stop closes its connections at once, which aborted the notice's own request, so the server went on
 * working on a call nobody waited for. A timeout did not show this only because the turn went on.
 * And only a request still in flight is cancelled: the SDK never lets go of a request's signal, so a
 * Stop also cancelled `initialize` and `tools/list` (given the turn's signal) and calls answered long ago.
 */
class CancelNoticeTransport extends StreamableHTTPClientTransport {
  private readonly notices = new Set<Promise<void>>();
  /** Our requests the server has not answered yet. */
  private readonly inFlight = new Set<RequestId>();

  constructor(...args: ConstructorParameters<typeof StreamableHTTPClientTransport>) {
    super(...args);
    // The SDK's client keeps this handler and calls its own after it (Protocol.connect).
    this.onmessage = (message) => {
      if ("id" in message && message.id !== undefined && !("method" in message)) this.inFlight.delete(message.id);
    };
  }

  override send(...args: Parameters<StreamableHTTPClientTransport["send"]>): Promise<void> {
    const [message] = args;
    const sending = Array.isArray(message) || !("method" in message) ? undefined : message;
    const cancel = sending?.method === "notifications/cancelled";
    if (cancel && !this.inFlight.delete(sending.params?.requestId as RequestId)) return Promise.resolve();
    if (sending && "id" in sending) this.inFlight.add(sending.id as RequestId);
    const sent = super.send(...args);
    if (cancel) {
      const notice = sent.catch(() => undefined);
      this.notices.add(notice);
      void notice.then(() => this.notices.delete(notice));
    }
    return sent;
  }

  override async close(): Promise<void> {
    if (this.notices.size) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CANCEL_NOTICE_GRACE_MS);
      });
      await Promise.race([Promise.all(this.notices), grace]);
      if (timer !== undefined) clearTimeout(timer);
    }
    await super.close();
  }
}

export async function connectMcp(
  endpoint: McpEndpoint,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<McpSession> {
  const transport = new CancelNoticeTransport(new URL(endpoint.url), {
    fetch: endpoint.reauthorize ? reauthorizingFetch(endpoint, guardedFetch(policy)) : guardedFetch(policy),
    requestInit: { headers: endpoint.headers },
  });
  // The SDK checks structured results against each tool's outputSchema: on its bounded reduction
  // (tool-schema.ts), with cfworker's validator (the SDK's default, Ajv, compiles with new Function,
  // which workerd forbids).
  // Both elicitation modes work (a card in the chat, protocol/elicitation.ts); defaults the user left
  // are filled in by the Worker before the answer leaves (agent/tools/elicitation.ts).
  const client = new Client(
    { name: "oracle", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      jsonSchemaValidator: new BoundedJsonSchemaValidator(),
    },
  );
  // A request carries no link to the call it came in: it goes to the latest call of this session still
  // running (exact when one call runs, which is the common case); with none, the server is declined.
  const asking: ElicitHandler[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    const handler = asking.at(-1);
    return handler ? handler(request.params, extra.signal) : Promise.resolve({ action: "decline" as const });
  });
  await client.connect(transport, { signal, timeout: CONNECT_TIMEOUT_MS });
  return {
    endpoint,
    async listTools(listSignal) {
      const tools: DiscoveredTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS_PER_SERVER; page++) {
        const result = await client.listTools(cursor ? { cursor } : {}, {
          signal: listSignal,
          timeout: CONNECT_TIMEOUT_MS,
        });
        for (const t of result.tools)
          tools.push({
            name: t.name,
            description: t.description ?? t.title ?? "",
            inputSchema: t.inputSchema as Record<string, unknown>,
            ...(t.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
            ...(t.annotations?.idempotentHint === true ? { idempotent: true } : {}),
          });
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      // A stable order whatever the server's: the tool list is part of every request's cached prefix.
      return tools.slice(0, MAX_TOOLS_PER_SERVER).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async callTool(name, args, options) {
      const { onElicit } = options;
      const timeout = onElicit ? ELICITING_CALL_CEILING_MS : options.timeoutMs;
      if (onElicit) asking.push(onElicit);
      try {
        const result = await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
          signal: options.signal,
          timeout,
          maxTotalTimeout: timeout,
        });
        return result as CallToolResult;
      } finally {
        if (onElicit) asking.splice(asking.lastIndexOf(onElicit), 1);
      }
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}

/**
 * The guarded fetch, with the endpoint's current headers set on every request; a 401 gets one
 * `reauthorize` (an OAuth refresh) and the request is sent again with the new headers. The SDK's bodies
 * are strings, so the request can be repeated. A 403 `insufficient_scope` ends the request with the
 * endpoint's `stepUp` error: more scopes need the user's consent, which no retry here can give.
 */
function reauthorizingFetch(endpoint: McpEndpoint, fetchFn: typeof fetch): typeof fetch {
  let headers = endpoint.headers;
  let retried = false;
  const send = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetchFn(input, { ...init, headers: merged });
  };
  return async (input, init) => {
    const response = await send(input, init);
    if (response.status === 403 && endpoint.stepUp) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === "insufficient_scope") {
        await response.body?.cancel().catch(() => undefined);
        throw await endpoint.stepUp(scope);
      }
    }
    if (response.status !== 401 || retried || !endpoint.reauthorize) return response;
    retried = true;
    await response.body?.cancel().catch(() => undefined);
    headers = await endpoint.reauthorize();
    return send(input, init);
  };
}

/** Connects, lists the tools and closes: what Settings' "Test connection" does. */
export async function discoverTools(
  endpoint: McpEndpoint,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<DiscoveredTool[]> {
  const session = await connectMcp(endpoint, policy, signal);
  try {
    return await session.listTools(signal);
  } finally {
    await session.close();
  }
}
