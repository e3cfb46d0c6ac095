// The OAuth client side of the MCP authorization spec, on the official SDK's functions: protected
// resource metadata (RFC 9728), authorization server discovery (RFC 8414 / OIDC) with the 2025-03-26
// fallback to default endpoints, a client ID metadata document where the server supports one, else
// dynamic client registration (RFC 7591), PKCE S256 with `state`, `scope` and `resource`, the code
// exchange, the refresh_token grant, and revocation (RFC 7009, which the SDK's client lacks). Every
// request goes through the guarded fetch (outbound/policy.ts), so the SSRF rules hold for the
// authorization server too, with a cap on each answer far below the MCP one (oauth-rules.ts).
import {
  discoverOAuthServerInfo,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  refreshAuthorization,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/sdk/client/auth.js";
import {
  InvalidClientError,
  InvalidGrantError,
  OAuthError,
  UnauthorizedClientError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { checkResourceAllowed, resourceUrlFromServerUrl } from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { guardedFetch, type OutboundPolicy, OutboundRefused } from "../outbound/policy";
import { openableUrl } from "../protocol";
import {
  bounded,
  clipped,
  MAX_OAUTH_RESPONSE_BYTES,
  MAX_OAUTH_VALUE_CHARS,
  OAuthWords,
  type StoredTokens,
  scopeList,
  toStoredTokens,
} from "./oauth-rules";

/** What discovery found for a server, kept (sealed) with its client registration. */
export interface OAuthServer {
  /** The authorization server (issuer) URL; the MCP server's origin when it publishes no metadata. */
  as_url: string;
  /** Absent: a 2025-03-26 server without metadata, whose endpoints are /authorize, /token and /register. */
  metadata?: AuthorizationServerMetadata;
  /** The `resource` parameter (RFC 8707): the protected resource's canonical URL. */
  resource: string;
  /** The scopes the resource asks for, space-separated. */
  scope?: string;
}

export type OAuthClient = OAuthClientInformationMixed;

/** A flow that cannot go on, in words for Settings. */
export class OAuthFlowError extends OAuthWords {
  override name = "OAuthFlowError";
}

/** The guarded fetch with an OAuth answer's own size cap: nothing larger is parsed, sealed or stored. */
const oauthFetch = (policy: OutboundPolicy) =>
  guardedFetch({ ...policy, maxResponseBytes: Math.min(policy.maxResponseBytes, MAX_OAUTH_RESPONSE_BYTES) });

/** What a 401's Bearer challenge says (RFC 6750 §3, RFC 9728 §5.1). */
export interface OAuthChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "oracle", version: "1" } },
};
const LIST_TOOLS = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

/**
 * Asks the server without credentials: a 401 whose WWW-Authenticate is a Bearer challenge means it wants
 * OAuth, and may name its resource metadata and scopes. A server may let `initialize` through and ask
 * only from the next request on, so an open `initialize` is followed by a `tools/list` in its session.
 * Anything else: not an OAuth server.
 */
export async function probeOAuth(serverUrl: string, policy: OutboundPolicy): Promise<OAuthChallenge | undefined> {
  const post = (message: object, session?: string | null) =>
    guardedFetch(policy)(serverUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session ? { "mcp-session-id": session } : {}),
        ...(message === INITIALIZE ? {} : { "mcp-protocol-version": LATEST_PROTOCOL_VERSION }),
      },
      body: JSON.stringify(message),
    }).catch(() => undefined);
  const initialized = await post(INITIALIZE);
  const challenge = await challengeOf(initialized);
  if (challenge || !initialized?.ok) return challenge;
  return challengeOf(await post(LIST_TOOLS, initialized.headers.get("mcp-session-id")));
}

async function challengeOf(response: Response | undefined): Promise<OAuthChallenge | undefined> {
  if (!response) return undefined;
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401) return undefined;
  if (!/^\s*bearer\b/i.test(response.headers.get("www-authenticate") ?? "")) return undefined;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  // A challenge's values past the limits are ignored, as if the server had not sent them.
  const fits = (value?: string) => value !== undefined && value.length <= MAX_OAUTH_VALUE_CHARS;
  return {
    ...(resourceMetadataUrl && fits(resourceMetadataUrl.href) ? { resourceMetadataUrl } : {}),
    ...(scope && fits(scope) ? { scope } : {}),
  };
}

/** The metadata fields the flow uses, each checked for size; the rest is dropped before it is sealed. */
const METADATA_URLS = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "registration_endpoint",
  "revocation_endpoint",
] as const;
const METADATA_LISTS = [
  "response_types_supported",
  "code_challenge_methods_supported",
  "token_endpoint_auth_methods_supported",
  "grant_types_supported",
  "scopes_supported",
] as const;

function keptMetadata(metadata: AuthorizationServerMetadata): AuthorizationServerMetadata {
  const given = metadata as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of METADATA_URLS)
    if (typeof given[key] === "string") kept[key] = bounded(`a metadata ${key}`, given[key]);
  for (const key of METADATA_LISTS) {
    const list = given[key];
    if (Array.isArray(list)) kept[key] = scopeList(bounded(`a metadata ${key}`, list.join(" ")));
  }
  if (given.client_id_metadata_document_supported === true) kept.client_id_metadata_document_supported = true;
  return kept as AuthorizationServerMetadata;
}

/**
 * Finds the authorization server of an MCP server and what it supports. A server with neither resource
 * metadata nor authorization server metadata is a 2025-03-26 one: its origin is the authorization
 * server, at /authorize, /token and /register (the SDK's defaults without metadata).
 */
export async function discoverServer(serverUrl: string, policy: OutboundPolicy): Promise<OAuthServer> {
  const probe = await probeOAuth(serverUrl, policy);
  const info = await discoverOAuthServerInfo(serverUrl, {
    ...(probe?.resourceMetadataUrl ? { resourceMetadataUrl: probe.resourceMetadataUrl } : {}),
    fetchFn: oauthFetch(policy),
  }).catch((error: unknown) => {
    throw new OAuthFlowError(`could not discover its authorization server (${errorText(error)})`);
  });
  if (!info.authorizationServerMetadata && info.resourceMetadata)
    throw new OAuthFlowError("its authorization server does not publish OAuth authorization server metadata");
  // The resource the server claims must be the server itself (or a parent of it), as the SDK requires.
  const own = resourceUrlFromServerUrl(serverUrl);
  const claimed = bounded("a resource", info.resourceMetadata?.resource);
  if (claimed && !checkResourceAllowed({ requestedResource: own, configuredResource: claimed }))
    throw new OAuthFlowError(`its metadata names another resource (${claimed})`);
  const scope = probe?.scope ?? bounded("a scope list", info.resourceMetadata?.scopes_supported?.join(" "));
  return {
    as_url: bounded("an authorization server URL", info.authorizationServerUrl),
    ...(info.authorizationServerMetadata ? { metadata: keptMetadata(info.authorizationServerMetadata) } : {}),
    resource: claimed ?? own.href,
    ...(scope ? { scope } : {}),
  };
}

/**
 * The client the Worker is where the authorization server takes client ID metadata documents: its
 * `clientIdUrl`, an https URL serving its own metadata, instead of a registration each time.
 */
export function metadataDocumentClient(server: OAuthServer, clientIdUrl: string | undefined): OAuthClient | undefined {
  if (!clientIdUrl || server.metadata?.client_id_metadata_document_supported !== true) return undefined;
  return { client_id: clientIdUrl };
}

/** Registers the Worker as a public client (PKCE, no secret) with this redirect URI and scope. */
export async function registerOracle(
  server: OAuthServer,
  redirectUri: string,
  scope: string | undefined,
  policy: OutboundPolicy,
): Promise<OAuthClient> {
  // Without metadata (2025-03-26), registration is tried at /register.
  if (server.metadata && !server.metadata.registration_endpoint)
    throw new OAuthFlowError(
      "its authorization server does not support dynamic client registration; enter a client ID under Advanced",
    );
  const answer = await registerClient(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientMetadata: {
      client_name: "Oracle",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    ...(scope ? { scope } : {}),
    fetchFn: oauthFetch(policy),
  }).catch((error: unknown) => {
    throw new OAuthFlowError(`could not register with its authorization server (${errorText(error)})`);
  });
  // Only what the flow uses is kept, each value checked for size.
  const method = bounded("a client authentication method", answer.token_endpoint_auth_method, 64);
  return {
    client_id: bounded("a client ID", answer.client_id),
    ...(answer.client_secret ? { client_secret: bounded("a client secret", answer.client_secret) } : {}),
    ...(method ? { token_endpoint_auth_method: method } : {}),
  };
}

/**
 * The URL to send the user to, and the PKCE verifier to keep (sealed) until the callback. A sign-in
 * page that is not https (http only on loopback where the policy allows it) is refused here, so no
 * file:, blob: or other URL ever reaches the browser.
 */
export async function authorizationUrl(
  server: OAuthServer,
  client: OAuthClient,
  request: { redirectUri: string; state: string; scope?: string },
  policy: OutboundPolicy,
): Promise<{ url: string; verifier: string }> {
  const { authorizationUrl: url, codeVerifier } = await startAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    redirectUrl: request.redirectUri,
    state: request.state,
    resource: server.resource,
    ...(request.scope ? { scope: request.scope } : {}),
  }).catch((error: unknown) => {
    throw new OAuthFlowError(errorText(error));
  });
  if (!openableUrl(url.href, policy.allowLoopback))
    throw new OAuthFlowError(
      `its authorization server's sign-in page is not an https address (${url.protocol}); it cannot be opened`,
    );
  return { url: url.href, verifier: codeVerifier };
}

/** The code exchange; `requested` is the scope asked for, granted when the answer names none. */
export async function exchangeCode(
  server: OAuthServer,
  client: OAuthClient,
  code: { code: string; verifier: string; redirectUri: string; requested?: string },
  policy: OutboundPolicy,
): Promise<StoredTokens> {
  const tokens = await exchangeAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    authorizationCode: code.code,
    codeVerifier: code.verifier,
    redirectUri: code.redirectUri,
    resource: server.resource,
    fetchFn: oauthFetch(policy),
  });
  return toStoredTokens(tokens, Date.now(), code.requested);
}

/**
 * The refresh_token grant; a rotated refresh token replaces the old one, else the old one is kept, and
 * an answer without `scope` keeps the scope granted before (`granted`).
 */
export async function refreshTokens(
  server: OAuthServer,
  client: OAuthClient,
  refresh: { token: string; granted?: string },
  policy: OutboundPolicy,
): Promise<StoredTokens> {
  const tokens = await refreshAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    refreshToken: refresh.token,
    resource: server.resource,
    fetchFn: oauthFetch(policy),
  });
  return toStoredTokens(tokens, Date.now(), refresh.granted);
}

/** The grant is gone for good (invalid_grant: expired or revoked; the client unknown): only the user can mend it. */
export const isGrantRefused = (error: unknown): boolean =>
  error instanceof InvalidGrantError || error instanceof InvalidClientError || error instanceof UnauthorizedClientError;

/**
 * RFC 7009: tells the authorization server to forget a token (the refresh token ends the grant). True
 * when it has a revocation endpoint and answered 200; the tokens are forgotten here either way.
 */
export async function revokeToken(
  server: OAuthServer,
  client: OAuthClient,
  token: { value: string; hint: "refresh_token" | "access_token" },
  policy: OutboundPolicy,
  /** Gives up waiting (account deletion: a provider that is down must not hold it up). */
  signal?: AbortSignal,
): Promise<boolean> {
  // OIDC discovery metadata carries it too, though the SDK's type for that shape leaves it out.
  const endpoint = (server.metadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  if (!endpoint) return false;
  const body = new URLSearchParams({ token: token.value, token_type_hint: token.hint, client_id: client.client_id });
  if (client.client_secret) body.set("client_secret", client.client_secret);
  const response = await oauthFetch(policy)(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
    ...(signal ? { signal } : {}),
  }).catch(() => undefined);
  await response?.body?.cancel().catch(() => undefined);
  return response?.ok ?? false;
}

/** A zod failure (the SDK checks every answer with zod): its first issues, not the JSON dump its message is. */
interface SchemaFailure {
  name: "ZodError";
  issues: { path: PropertyKey[]; message: string }[];
}
const isSchemaFailure = (error: unknown): error is SchemaFailure =>
  error instanceof Error && error.name === "ZodError" && Array.isArray((error as Partial<SchemaFailure>).issues);

/**
 * An SDK or OAuth error in words: the error code's description (cut: the authorization server wrote it),
 * never a stack or a schema dump.
 */
export function errorText(error: unknown): string {
  if (error instanceof OAuthError)
    return clipped(error.message || (error.constructor as { errorCode?: string }).errorCode || "refused");
  if (isSchemaFailure(error)) {
    const issues = error.issues.slice(0, 3).map((issue) => {
      const where = issue.path.map(String).join(".");
      return where ? `${where}: ${issue.message}` : issue.message;
    });
    return `its answer is not valid OAuth: ${issues.join("; ")}`;
  }
  // The guarded fetch's cap, in the flow's words (the MCP limit it also serves is 4 MB).
  if (error instanceof OutboundRefused && /^response (too large|larger than)/.test(error.message))
    return `the authorization server's answer is larger than ${MAX_OAUTH_RESPONSE_BYTES / 1024} KB`;
  return clipped(error instanceof Error ? error.message : String(error));
}
