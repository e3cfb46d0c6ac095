// The OAuth client side of the MCP authorization spec, on the official SDK's functions: protected
// resource metadata (RFC 9728), authorization server discovery (RFC 8414 / OIDC), dynamic client
// registration (RFC 7591), PKCE S256 with `state` and `resource`, the code exchange, the refresh_token
// grant, and revocation (RFC 7009, which the SDK's client lacks). Every request goes through the
// guarded fetch (outbound/policy.ts), so the SSRF rules hold for the authorization server too.
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
import { type StoredTokens, toStoredTokens } from "./oauth-rules";

/** What discovery found for a server, kept (sealed) with its client registration. */
export interface OAuthServer {
  /** The authorization server (issuer) URL. */
  as_url: string;
  metadata?: AuthorizationServerMetadata;
  /** The `resource` parameter (RFC 8707): the protected resource's canonical URL. */
  resource: string;
  /** The scopes the resource asks for, space-separated. */
  scope?: string;
}

export type OAuthClient = OAuthClientInformationMixed;

/** A flow that cannot go on, in words for Settings. */
export class OAuthFlowError extends Error {
  override name = "OAuthFlowError";
}

/**
 * Asks the server without credentials: a 401 whose WWW-Authenticate is a Bearer challenge means it wants
 * OAuth, and may name its resource metadata (RFC 9728 §5.1). Anything else: not an OAuth server.
 */
export async function probeOAuth(
  serverUrl: string,
  policy: OutboundPolicy,
): Promise<{ resourceMetadataUrl?: URL; scope?: string } | undefined> {
  const response = await guardedFetch(policy)(serverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "oracle", version: "1" },
      },
    }),
  }).catch(() => undefined);
  if (!response) return undefined;
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401) return undefined;
  if (!/^\s*bearer\b/i.test(response.headers.get("www-authenticate") ?? "")) return undefined;
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

/** Finds the authorization server of an MCP server and what it supports. */
export async function discoverServer(serverUrl: string, policy: OutboundPolicy): Promise<OAuthServer> {
  const fetchFn = guardedFetch(policy);
  const probe = await probeOAuth(serverUrl, policy);
  const info = await discoverOAuthServerInfo(serverUrl, {
    ...(probe?.resourceMetadataUrl ? { resourceMetadataUrl: probe.resourceMetadataUrl } : {}),
    fetchFn,
  }).catch((error: unknown) => {
    if (error instanceof OutboundRefused) throw new OAuthFlowError(`its authorization server is ${error.message}`);
    throw new OAuthFlowError(`could not discover its authorization server (${errorText(error)})`);
  });
  if (!info.authorizationServerMetadata)
    throw new OAuthFlowError("the server does not publish OAuth authorization server metadata");
  // The resource the server claims must be the server itself (or a parent of it), as the SDK requires.
  const own = resourceUrlFromServerUrl(serverUrl);
  const claimed = info.resourceMetadata?.resource;
  if (claimed && !checkResourceAllowed({ requestedResource: own, configuredResource: claimed }))
    throw new OAuthFlowError(`its metadata names another resource (${claimed})`);
  const scope = probe?.scope ?? info.resourceMetadata?.scopes_supported?.join(" ");
  return {
    as_url: info.authorizationServerUrl,
    metadata: info.authorizationServerMetadata,
    resource: claimed ?? own.href,
    ...(scope ? { scope } : {}),
  };
}

/** Registers the Worker as a public client (PKCE, no secret) with this redirect URI. */
export async function registerOracle(
  server: OAuthServer,
  redirectUri: string,
  policy: OutboundPolicy,
): Promise<OAuthClient> {
  if (!server.metadata?.registration_endpoint)
    throw new OAuthFlowError(
      "its authorization server does not support dynamic client registration; enter a client ID under Advanced",
    );
  return registerClient(server.as_url, {
    metadata: server.metadata,
    clientMetadata: {
      client_name: "Oracle",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    ...(server.scope ? { scope: server.scope } : {}),
    fetchFn: guardedFetch(policy),
  }).catch((error: unknown) => {
    throw new OAuthFlowError(`could not register with its authorization server (${errorText(error)})`);
  });
}

/** The URL to send the user to, and the PKCE verifier to keep (sealed) until the callback. */
export async function authorizationUrl(
  server: OAuthServer,
  client: OAuthClient,
  redirectUri: string,
  state: string,
): Promise<{ url: string; verifier: string }> {
  const { authorizationUrl: url, codeVerifier } = await startAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    redirectUrl: redirectUri,
    state,
    resource: server.resource,
    ...(server.scope ? { scope: server.scope } : {}),
  });
  return { url: url.href, verifier: codeVerifier };
}

export async function exchangeCode(
  server: OAuthServer,
  client: OAuthClient,
  code: { code: string; verifier: string; redirectUri: string },
  policy: OutboundPolicy,
): Promise<StoredTokens> {
  const tokens = await exchangeAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    authorizationCode: code.code,
    codeVerifier: code.verifier,
    redirectUri: code.redirectUri,
    resource: server.resource,
    fetchFn: guardedFetch(policy),
  });
  return toStoredTokens(tokens, Date.now());
}

/** The refresh_token grant; a rotated refresh token replaces the old one, else the old one is kept. */
export async function refreshTokens(
  server: OAuthServer,
  client: OAuthClient,
  refreshToken: string,
  policy: OutboundPolicy,
): Promise<StoredTokens> {
  const tokens = await refreshAuthorization(server.as_url, {
    ...(server.metadata ? { metadata: server.metadata } : {}),
    clientInformation: client,
    refreshToken,
    resource: server.resource,
    fetchFn: guardedFetch(policy),
  });
  return toStoredTokens(tokens, Date.now());
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
): Promise<boolean> {
  // OIDC discovery metadata carries it too, though the SDK's type for that shape leaves it out.
  const endpoint = (server.metadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  if (!endpoint) return false;
  const body = new URLSearchParams({ token: token.value, token_type_hint: token.hint, client_id: client.client_id });
  if (client.client_secret) body.set("client_secret", client.client_secret);
  const response = await guardedFetch(policy)(endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
  }).catch(() => undefined);
  await response?.body?.cancel().catch(() => undefined);
  return response?.ok ?? false;
}

/** An SDK or OAuth error in words: the error code's description, never a stack. */
export function errorText(error: unknown): string {
  if (error instanceof OAuthError)
    return error.message || (error.constructor as { errorCode?: string }).errorCode || "refused";
  return error instanceof Error ? error.message : String(error);
}
