// The Worker as an OpenID Connect relying party (oauth4webapi: fetch and WebCrypto, no Node): the
// authorization request (code flow, PKCE S256, state, nonce) and, at the callback, the code exchanged
// and everything checked — the state, the ID token's signature against the issuer's published keys, its
// issuer, audience, expiry and nonce. oauth4webapi checks the claims but, for a token fetched from the
// token endpoint over TLS, not the signature; we check it too (validateApplicationLevelSignature), so a
// token the issuer did not sign is refused whatever the channel. The person's email and name come from
// the ID token, or from UserInfo when the provider keeps them there. GitHub speaks OAuth 2 without OpenID
// Connect: its user is read from its API with the access token (subject: the numeric id).
import * as oauth from "oauth4webapi";
import { z } from "zod";
import { GITHUB_ISSUER, isLoopbackIssuer, type ProviderConfig } from "./oidc-config";

/** What the browser's round trip must bring back: kept server-side (auth_challenges) meanwhile. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  verifier: string;
}

/** Who the provider says signed in. */
export interface ProviderIdentity {
  subject: string;
  /** What Settings shows of the link: an email, a login or a name. */
  label: string;
  /** The provider's idea of a username (preferred_username, GitHub's login, an email's local part). */
  usernameHint?: string;
}

/** Why a callback failed, as the sign-in page's `?error=` codes name it (protocol/oidc.ts). */
export class OidcFlowError extends Error {
  constructor(
    readonly code: "oidc_denied" | "oidc_failed" | "oidc_unavailable",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OidcFlowError";
  }
}

const TIMEOUT_MS = 10_000;

const GITHUB_SERVER: oauth.AuthorizationServer = {
  issuer: GITHUB_ISSUER,
  authorization_endpoint: "https://github.com/login/oauth/authorize",
  token_endpoint: "https://github.com/login/oauth/access_token",
};
export const GITHUB_USER_URL = "https://api.github.com/user";

/** Plain http only to a loopback issuer (tests, local development); oauth4webapi refuses it elsewhere. */
const requestOptions = (provider: ProviderConfig) => ({
  [oauth.allowInsecureRequests]: isLoopbackIssuer(provider.issuer),
  signal: () => AbortSignal.timeout(TIMEOUT_MS),
});

/**
 * Discovered metadata, kept per isolate for ten minutes: a sign-in's start and its callback use the
 * same object, and oauth4webapi keeps the issuer's keys (JWKS) by that object for five.
 */
const discovered = new Map<string, { server: oauth.AuthorizationServer; at: number }>();
const DISCOVERY_TTL_MS = 10 * 60_000;

export async function authorizationServer(provider: ProviderConfig): Promise<oauth.AuthorizationServer> {
  if (provider.type === "github") return GITHUB_SERVER;
  const cached = discovered.get(provider.issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.server;
  const issuer = new URL(provider.issuer);
  const server = await failuresAs("discovery", async () =>
    oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...requestOptions(provider) }),
    ),
  );
  discovered.set(provider.issuer, { server, at: Date.now() });
  return server;
}

export function newFlowSecrets(): FlowSecrets {
  return {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
  };
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(
  provider: ProviderConfig,
  server: oauth.AuthorizationServer,
  redirectUri: string,
  flow: FlowSecrets,
): Promise<URL> {
  if (!server.authorization_endpoint) throw new OidcFlowError("oidc_failed", "no authorization endpoint");
  const url = new URL(server.authorization_endpoint);
  const params = {
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: provider.scopes,
    state: flow.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    // GitHub knows no nonce (no ID token); it ignores unknown parameters, but we send it none.
    ...(provider.type === "oidc" ? { nonce: flow.nonce } : {}),
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

function clientOf(provider: ProviderConfig, server: oauth.AuthorizationServer): [oauth.Client, oauth.ClientAuth] {
  const client: oauth.Client = { client_id: provider.clientId };
  const secret = provider.clientSecret;
  if (!secret) return [client, oauth.None()];
  // GitHub takes the secret in the body; elsewhere Basic (the default of RFC 6749) unless only post is offered.
  const methods = server.token_endpoint_auth_methods_supported;
  const post =
    provider.type === "github" ||
    (methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post"));
  return [client, post ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret)];
}

/** The callback's URL (code, state or error) exchanged for the signed-in identity, every check done. */
export async function finishAuthorization(
  provider: ProviderConfig,
  callbackUrl: URL,
  redirectUri: string,
  flow: FlowSecrets,
): Promise<ProviderIdentity> {
  const server = await authorizationServer(provider);
  const [client, auth] = clientOf(provider, server);
  const params = failuresAs("callback", () => oauth.validateAuthResponse(server, client, callbackUrl, flow.state));
  const options = requestOptions(provider);
  const response = await failuresAs("token", async () =>
    oauth.authorizationCodeGrantRequest(server, client, auth, await params, redirectUri, flow.verifier, options),
  );
  if (provider.type === "github") {
    const tokens = await failuresAs("token", () => oauth.processAuthorizationCodeResponse(server, client, response));
    return failuresAs("user", () => githubIdentity(tokens.access_token));
  }
  const tokens = await failuresAs("token", () =>
    oauth.processAuthorizationCodeResponse(server, client, response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    }),
  );
  await failuresAs("signature", () => oauth.validateApplicationLevelSignature(server, response, options));
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims) throw new OidcFlowError("oidc_failed", "no ID token");
  return identityFromClaims({ ...(await profileClaims(provider, server, client, claims, tokens)), ...claims });
}

/**
 * What the ID token leaves out of who the person is (email, username, name), from the UserInfo endpoint:
 * a provider that follows the spec to the letter (oidc-provider, Okta) puts the scopes' claims there, not
 * in an ID token issued beside an access token. Only for the label and the username: the subject is the
 * ID token's, and a UserInfo answer about another subject is refused.
 */
async function profileClaims(
  provider: ProviderConfig,
  server: oauth.AuthorizationServer,
  client: oauth.Client,
  claims: oauth.IDToken,
  tokens: oauth.TokenEndpointResponse,
): Promise<Record<string, unknown>> {
  if (claims.email || claims.preferred_username || claims.name || !server.userinfo_endpoint) return {};
  const response = await failuresAs("userinfo", () =>
    oauth.userInfoRequest(server, client, tokens.access_token, requestOptions(provider)),
  );
  return failuresAs("userinfo", () => oauth.processUserInfoResponse(server, client, claims.sub, response));
}

const IdTokenClaimsSchema = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().max(320).optional(),
  preferred_username: z.string().max(255).optional(),
  name: z.string().max(255).optional(),
});

export function identityFromClaims(claims: unknown): ProviderIdentity {
  const parsed = IdTokenClaimsSchema.safeParse(claims);
  if (!parsed.success) throw new OidcFlowError("oidc_failed", "the ID token's claims are not usable");
  const { sub, email, preferred_username, name } = parsed.data;
  return {
    subject: sub,
    label: email ?? preferred_username ?? name ?? "",
    usernameHint: preferred_username ?? email?.split("@")[0] ?? name,
  };
}

const GitHubUserSchema = z.object({
  id: z.number().int(),
  login: z.string().max(100),
  email: z.string().max(320).nullish(),
});

/** GitHub's user API wants a User-Agent and names its media type. */
export function githubUserRequest(accessToken: string): Request {
  return new Request(GITHUB_USER_URL, {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      Accept: "application/vnd.github+json",
      "User-Agent": "Oracle",
      "X-GitHub-Api-Version": "2022-11-28",
    },
  });
}

export function identityFromGitHubUser(body: unknown): ProviderIdentity {
  const parsed = GitHubUserSchema.safeParse(body);
  if (!parsed.success) throw new OidcFlowError("oidc_failed", "GitHub's user is not usable");
  const { id, login, email } = parsed.data;
  return { subject: String(id), label: email ?? login, usernameHint: login };
}

async function githubIdentity(accessToken: string): Promise<ProviderIdentity> {
  const response = await fetch(githubUserRequest(accessToken), { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new OidcFlowError("oidc_failed", `GitHub's user API answered ${response.status}`);
  return identityFromGitHubUser(await response.json());
}

/**
 * Every failure of a step as one of three codes: the provider refused or was refused (`oidc_denied` when
 * the user cancelled there), or could not be reached. What it said is logged, never shown.
 */
async function failuresAs<T>(step: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OidcFlowError) throw error;
    const denied = error instanceof oauth.AuthorizationResponseError && error.error === "access_denied";
    // fetch's own failures are TypeErrors; oauth4webapi's refusals of an argument are TypeErrors with a code.
    const unreachable =
      (error instanceof TypeError && !("code" in error)) ||
      (error instanceof DOMException && error.name === "TimeoutError");
    const code = denied ? "oidc_denied" : unreachable ? "oidc_unavailable" : "oidc_failed";
    // The provider's error code (ResponseBodyError, AuthorizationResponseError) says more than the message.
    const said = (error as { error?: unknown }).error;
    const message = error instanceof Error ? error.message : String(error);
    console.warn(
      `identity provider: ${step} failed (${code}): ${message}${typeof said === "string" ? ` (${said})` : ""}`,
    );
    throw new OidcFlowError(code, `${step} failed`, { cause: error });
  }
}
