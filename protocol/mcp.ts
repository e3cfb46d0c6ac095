// The user's own MCP servers (issue 14): what Settings → Tools sends and reads, and how an MCP tool is
// named to the model. A server's secret (bearer token or header value) goes in and never comes back.
import { z } from "zod";

/** An MCP tool is offered to the model as `<server>__<tool>`; built-in tool names never hold "__". */
export const MCP_TOOL_SEPARATOR = "__";
/** OpenAI's limit on a function name, and its alphabet. */
export const MAX_TOOL_NAME = 64;
export const MAX_MCP_SERVERS = 10;

export const McpServerNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,23}$/,
    "name must start with a-z and hold only a-z, 0-9 and -, at most 24 characters (it prefixes the tools' names)",
  );

const HeaderNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, "header name must be an HTTP token of at most 64 characters")
  .refine(
    (name) =>
      !["host", "content-type", "content-length", "accept", "mcp-session-id", "mcp-protocol-version"].includes(
        name.toLowerCase(),
      ),
    "that header is set by the MCP client itself",
  );

const SecretSchema = z
  .string()
  .min(1, "secret is empty")
  .max(4096, "secret is longer than 4096 characters")
  .regex(/^[\x20-\x7e]+$/, "secret must be printable ASCII (it goes in an HTTP header)");

/** An OAuth client id the user registered by hand (servers without dynamic client registration). */
const OAuthClientIdSchema = z
  .string()
  .min(1, "client ID is empty")
  .max(256, "client ID is longer than 256 characters")
  .regex(/^[\x21-\x7e]+$/, "client ID must be printable ASCII without spaces");

/**
 * OAuth 2.1 per the MCP authorization spec: the Worker discovers the authorization server, registers
 * itself (RFC 7591) unless a client id is given, and the user connects in a popup (…/oauth/start).
 */
const OAuthAuthInputSchema = z
  .object({
    type: z.literal("oauth"),
    client_id: OAuthClientIdSchema.optional(),
    client_secret: SecretSchema.optional(),
  })
  .strict()
  .refine((auth) => !auth.client_secret || auth.client_id, {
    message: "give the client ID with its secret",
    path: ["client_id"],
  });

/** How the Worker authenticates to the server; the secret is write-only. */
export const McpAuthInputSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("none") }).strict(),
  z.object({ type: z.literal("bearer"), token: SecretSchema }).strict(),
  z.object({ type: z.literal("header"), name: HeaderNameSchema, value: SecretSchema }).strict(),
  OAuthAuthInputSchema,
]);
export type McpAuthInput = z.infer<typeof McpAuthInputSchema>;

export const McpUrlSchema = z
  .string()
  .max(2048, "url is longer than 2048 characters")
  .refine((url) => URL.canParse(url), "url is not a valid URL");

/** POST /api/mcp-servers. */
export const McpServerCreateSchema = z.object({
  name: McpServerNameSchema,
  url: McpUrlSchema,
  auth: McpAuthInputSchema.default({ type: "none" }),
  enabled: z.boolean().default(true),
});
export type McpServerCreate = z.infer<typeof McpServerCreateSchema>;

/** PATCH /api/mcp-servers/:id: any subset; `auth` replaces the stored one, absent keeps it. */
export const McpServerPatchSchema = z.object({
  name: McpServerNameSchema.optional(),
  url: McpUrlSchema.optional(),
  auth: McpAuthInputSchema.optional(),
  enabled: z.boolean().optional(),
  /** Tool names (as the server names them) the agent is not offered. */
  disabled_tools: z.array(z.string().min(1).max(128)).max(500).optional(),
});
export type McpServerPatch = z.infer<typeof McpServerPatchSchema>;

/** A tool as the last connection test found it. */
export const McpToolInfoSchema = z.object({
  /** The server's own name for it. */
  name: z.string(),
  /** The name the model sees: `<server>__<tool>`. */
  qualified_name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  /** The server marks it read-only (`readOnlyHint`); false when it says nothing. */
  read_only: z.boolean(),
});
export type McpToolInfo = z.infer<typeof McpToolInfoSchema>;

/** An OAuth server: never connected (or disconnected), connected, or its grant expired or was revoked. */
export const McpOAuthStatusSchema = z.enum(["needs_authorization", "connected", "expired"]);
export type McpOAuthStatus = z.infer<typeof McpOAuthStatusSchema>;

/** The stored auth, secret withheld: only its kind and, for a custom header, the header's name. */
export const McpAuthInfoSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("none") }),
  z.object({ type: z.literal("bearer") }),
  z.object({ type: z.literal("header"), name: z.string() }),
  z.object({
    type: z.literal("oauth"),
    status: McpOAuthStatusSchema,
    /** When the access token runs out (it is refreshed before then); null when not connected or unknown. */
    expires_at: z.string().nullable(),
    /** The scopes the authorization server granted. */
    scopes: z.array(z.string()),
    /** The client id the user entered, or null when the Worker registered itself. */
    client_id: z.string().nullable(),
    /** Why it needs the user again, in words (status "expired"); null otherwise. */
    error: z.string().nullable(),
    /**
     * Scopes the server asked for (403 `insufficient_scope`) that the grant lacks: reconnecting asks for
     * them with the granted ones. Empty when nothing more is needed (absent from older Workers).
     */
    needed_scopes: z.array(z.string()).default([]),
  }),
]);
export type McpAuthInfo = z.infer<typeof McpAuthInfoSchema>;

/** One server as every /api/mcp-servers route answers it. */
export const McpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  auth: McpAuthInfoSchema,
  /** The tools the last successful test found (empty before one). */
  tools: z.array(McpToolInfoSchema),
  disabled_tools: z.array(z.string()),
  /** The last connection test: when, and its error if it failed (null when it worked or never ran). */
  checked_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type McpServer = z.infer<typeof McpServerSchema>;

export const McpServerListSchema = z.object({ servers: z.array(McpServerSchema) });

/** POST /api/mcp-servers/:id/test: the connection's outcome, and the server as now stored. */
export const McpTestResultSchema = z.object({
  ok: z.boolean(),
  error: z.string().nullable(),
  server: McpServerSchema,
});
export type McpTestResult = z.infer<typeof McpTestResultSchema>;

/** POST /api/mcp-servers/:id/oauth/start: where the user approves the connection (opened in a popup). */
export const McpOAuthStartResultSchema = z.object({ authorization_url: z.string() });
export type McpOAuthStartResult = z.infer<typeof McpOAuthStartResultSchema>;

/** POST /api/mcp-servers/:id/oauth/disconnect: whether the authorization server confirmed the revocation. */
export const McpOAuthDisconnectResultSchema = z.object({ revoked: z.boolean(), server: McpServerSchema });
export type McpOAuthDisconnectResult = z.infer<typeof McpOAuthDisconnectResultSchema>;

/** GET /api/mcp-servers/oauth/callback: the authorization server's redirect (RFC 6749 §4.1.2). */
export const McpOAuthCallbackQuerySchema = z.object({
  state: z.string().min(1).max(512),
  code: z.string().min(1).max(4096).optional(),
  error: z.string().max(256).optional(),
});

/**
 * Where the callback sends the browser: /settings/tools with `mcp_oauth` (the outcome) and `server`
 * (the id). The page, opened as the popup, tells its opener by postMessage and closes itself.
 */
export const MCP_OAUTH_OUTCOME_PARAM = "mcp_oauth";
export const McpOAuthOutcomeSchema = z.enum(["connected", "denied", "failed"]);
export type McpOAuthOutcome = z.infer<typeof McpOAuthOutcomeSchema>;
/** The postMessage the callback page sends its opener (same origin only). */
export const McpOAuthMessageSchema = z.object({
  type: z.literal("mcp_oauth"),
  server: z.string(),
  outcome: McpOAuthOutcomeSchema,
});
export type McpOAuthMessage = z.infer<typeof McpOAuthMessageSchema>;

/** What a server whose authorization failed to refresh says, in Settings and in a turn. */
export const mcpOAuthExpiredText = (name: string) =>
  `The authorization for ${name} expired or was revoked; reconnect it in Settings → Tools`;

/** What a call answered 403 `insufficient_scope` says, in Settings and in a turn: the scopes to allow. */
export const mcpOAuthScopeText = (name: string, scopes: readonly string[]) =>
  `${name} needs more access (${scopes.join(", ")}); reconnect it in Settings → Tools to allow it`;

/** Where the Worker serves its OAuth client ID metadata document (an authorization server fetches it). */
export const MCP_OAUTH_CLIENT_METADATA_PATH = "/api/oauth/client-metadata.json";

/** localhost, *.localhost, 127.0.0.0/8 and [::1], as the URL parser writes a host name. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether the browser may be sent to this URL (an authorization server's sign-in page): https, or http
 * to a loopback host where `loopbackHttp` (local development). file:, blob:, data:, javascript: and the
 * rest never leave the Worker, and the client checks again before it navigates.
 */
export function openableUrl(url: string, loopbackHttp: boolean): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname, username, password } = new URL(url);
  if (username || password) return false;
  if (protocol === "https:") return true;
  return protocol === "http:" && loopbackHttp && isLoopbackHost(hostname);
}

/** The name the model sees for a server's tool: letters, digits, _ and - only, at most 64 characters. */
export function qualifiedToolName(server: string, tool: string): string {
  const safe = tool.replace(/[^A-Za-z0-9_-]/g, "_");
  return `${server}${MCP_TOOL_SEPARATOR}${safe}`.slice(0, MAX_TOOL_NAME);
}

/** `github__search` → { server: "github", tool: "search" }; a built-in tool's name → undefined. */
export function splitToolName(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf(MCP_TOOL_SEPARATOR);
  if (at <= 0) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + MCP_TOOL_SEPARATOR.length) };
}
