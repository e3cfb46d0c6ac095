// A real OAuth 2.1 authorization server and an OAuth-protected MCP server on 127.0.0.1, for the tests of
// MCP servers behind OAuth (issue 30). Built from the official SDK's server-side auth pieces:
// `mcpAuthRouter` (RFC 8414 metadata, RFC 9728 protected-resource metadata, dynamic client registration,
// /authorize with PKCE S256, /token with refresh tokens, /revoke), `requireBearerAuth` in front of /mcp,
// and an in-memory `OAuthServerProvider`. /authorize approves at once (the user "clicked Approve").
// Refresh tokens rotate: each is good once. The test can expire the access tokens, revoke every grant,
// and read how many refreshes and revocations the server saw. /mcp hands an authorized request on to a
// plain server of test/support/mcp-server.ts, so its tools (echo, lookup, …) answer.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { startMcpServer, type TestMcpServer } from "./mcp-server.ts";

// express comes with the SDK, without its types: only what is used here is typed.
type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type ExpressApp = Handler & { use(path: string | Handler, ...handlers: Handler[]): void; disable(name: string): void };
const express = createRequire(import.meta.url)("express") as () => ExpressApp;

export interface OAuthServerOptions {
  /** Lifetime of an access token (default one hour). */
  accessTokenSeconds?: number;
  /** Refuse dynamic client registration (the user must enter a client id). */
  noRegistration?: boolean;
}

export interface TestOAuthServer {
  /** The issuer, e.g. "http://127.0.0.1:41234/". */
  issuer: string;
  /** The protected MCP endpoint, e.g. "http://127.0.0.1:41234/mcp". */
  mcpUrl: string;
  /** The tools' server behind it (its calls). */
  inner: TestMcpServer;
  /** refresh_token grants answered with new tokens. */
  refreshes: number;
  /** Refresh tokens refused (reused, revoked, unknown). */
  refusedRefreshes: number;
  /** Each revocation request (RFC 7009) and its hint. */
  revocations: { token: string; hint?: string }[];
  /** Clients registered dynamically. */
  registrations: number;
  /** Authorization codes exchanged. */
  exchanges: number;
  /** The Authorization header of each request /mcp got. */
  bearerSeen: (string | undefined)[];
  /** Every access token issued so far ends now (the next request with one is a 401). */
  expireAccessTokens(): void;
  /** Every grant is revoked: its access and refresh tokens stop working. */
  revokeGrants(): void;
  /** Grants still alive. */
  liveGrants(): number;
  close(): Promise<void>;
}

interface Grant {
  id: string;
  clientId: string;
  scopes: string[];
  resource?: string;
  revoked: boolean;
}

class InMemoryProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, { grant: Grant; expiresAt: number }>();
  private readonly refresh = new Map<string, Grant>();
  readonly grants: Grant[] = [];

  constructor(
    private readonly record: TestOAuthServer,
    private readonly options: OAuthServerOptions,
  ) {}

  get clientsStore() {
    const { clients, record, options } = this;
    return {
      getClient: async (id: string) => clients.get(id),
      ...(options.noRegistration
        ? {}
        : {
            registerClient: async (client: OAuthClientInformationFull) => {
              record.registrations++;
              clients.set(client.client_id, client);
              return client;
            },
          }),
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ServerResponse) {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.writeHead(302, { location: target.href }).end();
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const found = this.codes.get(code);
    if (!found) throw new InvalidGrantError("unknown authorization code");
    return found.params.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ) {
    const found = this.codes.get(code);
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError("unknown authorization code");
    if (redirectUri && redirectUri !== found.params.redirectUri) throw new InvalidGrantError("redirect_uri differs");
    this.codes.delete(code);
    this.record.exchanges++;
    const grant: Grant = {
      id: randomUUID(),
      clientId: client.client_id,
      scopes: found.params.scopes ?? [],
      revoked: false,
      ...(found.params.resource ? { resource: found.params.resource.href } : {}),
    };
    this.grants.push(grant);
    return this.issue(grant);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    const grant = this.refresh.get(refreshToken);
    // Rotation: a refresh token works once; a reused one (or one of a revoked grant) is invalid_grant.
    this.refresh.delete(refreshToken);
    if (!grant || grant.revoked || grant.clientId !== client.client_id) {
      this.record.refusedRefreshes++;
      throw new InvalidGrantError("refresh token is invalid, used or revoked");
    }
    this.record.refreshes++;
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (!found || found.grant.revoked) throw new InvalidTokenError("unknown or revoked token");
    return {
      token,
      clientId: found.grant.clientId,
      scopes: found.grant.scopes,
      expiresAt: found.expiresAt,
      ...(found.grant.resource ? { resource: new URL(found.grant.resource) } : {}),
    };
  }

  async revokeToken(_client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest) {
    this.record.revocations.push({
      token: request.token,
      ...(request.token_type_hint ? { hint: request.token_type_hint } : {}),
    });
    const grant = this.refresh.get(request.token) ?? this.access.get(request.token)?.grant;
    if (grant) grant.revoked = true;
  }

  expireAll() {
    for (const entry of this.access.values()) entry.expiresAt = Math.floor(Date.now() / 1000) - 10;
  }

  private issue(grant: Grant): OAuthTokens {
    const lifetime = this.options.accessTokenSeconds ?? 3600;
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, { grant, expiresAt: Math.floor(Date.now() / 1000) + lifetime });
    this.refresh.set(refreshToken, grant);
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: lifetime,
      refresh_token: refreshToken,
      ...(grant.scopes.length ? { scope: grant.scopes.join(" ") } : {}),
    };
  }
}

/** Hands an authorized /mcp request to the tools' server and streams its answer back. */
async function forward(inner: TestMcpServer, req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const name of ["content-type", "accept", "mcp-protocol-version", "mcp-session-id", "last-event-id"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const answer = await fetch(inner.url, {
    method: req.method ?? "POST",
    headers,
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream).pipe(res);
  else res.end();
}

export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<TestOAuthServer> {
  const inner = await startMcpServer();
  const app = express();
  app.disable("x-powered-by");
  const http: Server = createServer((req, res) => app(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}/`;
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const record: TestOAuthServer = {
    issuer,
    mcpUrl,
    inner,
    refreshes: 0,
    refusedRefreshes: 0,
    revocations: [],
    registrations: 0,
    exchanges: 0,
    bearerSeen: [],
    expireAccessTokens: () => provider.expireAll(),
    revokeGrants: () => {
      for (const grant of provider.grants) grant.revoked = true;
    },
    liveGrants: () => provider.grants.filter((g) => !g.revoked).length,
    close: async () => {
      await inner.close();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
  const provider = new InMemoryProvider(record, options);
  const noLimit = { rateLimit: false as const };
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(issuer),
      resourceServerUrl: new URL(mcpUrl),
      scopesSupported: ["tools"],
      resourceName: "Oracle test tools",
      authorizationOptions: noLimit,
      tokenOptions: noLimit,
      clientRegistrationOptions: noLimit,
      revocationOptions: noLimit,
    }) as Handler,
  );
  const seen: Handler = (req, _res, next) => {
    record.bearerSeen.push(req.headers.authorization);
    next();
  };
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)),
  }) as Handler;
  app.use("/mcp", seen, bearer, (req, res, next) => {
    forward(inner, req, res).catch(next);
  });
  return record;
}
