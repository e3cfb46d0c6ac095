// A real OAuth 2.1 authorization server and an OAuth-protected MCP server on 127.0.0.1, for the tests of
// MCP servers behind OAuth (issue 30). Built from the official SDK's server-side auth pieces:
// `mcpAuthRouter` (RFC 8414 metadata, RFC 9728 protected-resource metadata, dynamic client registration,
// /authorize with PKCE S256, /token with refresh tokens, /revoke), `requireBearerAuth` in front of /mcp,
// and an in-memory `OAuthServerProvider`. /authorize approves at once (the user "clicked Approve").
// Refresh tokens rotate: each is good once. The test can expire the access tokens, revoke every grant,
// and read how many refreshes and revocations the server saw. /mcp hands an authorized request on to a
// plain server of test/support/mcp-server.ts, so its tools (echo, lookup, …) answer. Options make it
// odd or hostile (oauth-factory.ts lists them), and `startOAuthFactory` starts such servers on request
// for tests inside workerd.
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
import type { OAuthServerOptions, OAuthServerRecord } from "./oauth-factory.ts";

export type { OAuthServerOptions } from "./oauth-factory.ts";

// express comes with the SDK, without its types: only what is used here is typed.
type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
type ExpressApp = Handler & { use(path: string | Handler, ...handlers: Handler[]): void; disable(name: string): void };
const express = createRequire(import.meta.url)("express") as () => ExpressApp;

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
  /** Each authorization request: its client id and the scopes it asked for. */
  authorizations: OAuthServerRecord["authorizations"];
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
    // A client id that is a metadata document's URL: the document as if fetched, a public client.
    const documented = (id: string): OAuthClientInformationFull | undefined => {
      const document = options.clientDocuments?.[id];
      if (!document) return undefined;
      return { client_id: id, redirect_uris: document.redirect_uris, token_endpoint_auth_method: "none" };
    };
    return {
      getClient: async (id: string) => clients.get(id) ?? documented(id),
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
    this.record.authorizations.push({ clientId: client.client_id, scopes: params.scopes ?? [] });
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.writeHead(302, { location: target.href }).end();
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    if (this.options.tokenError) throw new InvalidGrantError(this.options.tokenError);
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
    const accessToken = `at-${randomUUID()}`.padEnd(this.options.accessTokenChars ?? 0, "x");
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

/** An /mcp request with its body read (the checks below look at its JSON-RPC method). */
type McpRequest = IncomingMessage & { rawBody?: Buffer; auth?: AuthInfo };

const readBody: Handler = (req, _res, next) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    (req as McpRequest).rawBody = Buffer.concat(chunks);
    next();
  });
  req.on("error", next);
};

/** The JSON-RPC message of a request (one, not a batch), or undefined. */
function messageOf(req: IncomingMessage): { method?: string; params?: { name?: string } } | undefined {
  try {
    const message = JSON.parse((req as McpRequest).rawBody?.toString() || "null");
    return message && typeof message === "object" && !Array.isArray(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Hands an authorized /mcp request to the tools' server and streams its answer back. */
async function forward(inner: TestMcpServer, req: IncomingMessage, res: ServerResponse) {
  const body = (req as McpRequest).rawBody;
  const headers = new Headers();
  for (const name of ["content-type", "accept", "mcp-protocol-version", "mcp-session-id", "last-event-id"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const answer = await fetch(inner.url, {
    method: req.method ?? "POST",
    headers,
    ...(body?.length ? { body: new Uint8Array(body) } : {}),
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
    authorizations: [],
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
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl));
  app.use(oddMetadata(options));
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
    ...(options.noMetadata ? {} : { resourceMetadataUrl }),
  }) as Handler;
  // An open `initialize` (and notifications) skips the token check; everything else needs one.
  const guard: Handler = (req, res, next) => {
    const method = messageOf(req)?.method ?? "";
    if (options.openInitialize && (method === "initialize" || method.startsWith("notifications/"))) return next();
    bearer(req, res, next);
  };
  app.use("/mcp", seen, readBody, guard, toolScopes(options, resourceMetadataUrl), (req, res, next) => {
    forward(inner, req, res).catch(next);
  });
  return record;
}

/** No metadata at all (a 2025-03-26 server), or the router's metadata with the options' fields laid over it. */
function oddMetadata(options: OAuthServerOptions): Handler {
  return (req, res, next) => {
    if (!req.url?.startsWith("/.well-known/")) return next();
    if (options.noMetadata) return void res.writeHead(404).end();
    const extra = options.metadata;
    if (extra && req.url.startsWith("/.well-known/oauth-authorization-server")) {
      const json = res as ServerResponse & { json(body: unknown): void };
      const original = json.json.bind(json);
      json.json = (body) => original({ ...(body as object), ...extra });
    }
    next();
  };
}

/** A tool's call with a token that lacks the scopes it needs: 403 `insufficient_scope` naming them (RFC 6750 §3.1). */
function toolScopes(options: OAuthServerOptions, resourceMetadataUrl: string): Handler {
  return (req, res, next) => {
    const message = messageOf(req);
    const needed = message?.method === "tools/call" ? options.toolScopes?.[message.params?.name ?? ""] : undefined;
    const granted = new Set((req as McpRequest).auth?.scopes ?? []);
    if (!needed || needed.every((scope) => granted.has(scope))) return next();
    res
      .writeHead(403, {
        "content-type": "application/json",
        "www-authenticate": `Bearer error="insufficient_scope", scope="${needed.join(" ")}", resource_metadata="${resourceMetadataUrl}"`,
      })
      .end(JSON.stringify({ error: "insufficient_scope", error_description: "the token lacks a scope" }));
  };
}

/**
 * Starts OAuth servers on request, for tests inside workerd (test/support/oauth-factory.ts): POST
 * /servers with the options → {id, issuer, mcpUrl}; GET /servers/:id → what it saw; DELETE closes it.
 */
export async function startOAuthFactory(): Promise<{ url: string; close(): Promise<void> }> {
  const servers = new Map<string, TestOAuthServer>();
  const http = createServer(async (req, res) => {
    const answer = (status: number, body?: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(body === undefined ? "" : JSON.stringify(body));
    try {
      const id = /^\/servers\/([\w-]+)$/.exec(req.url ?? "")?.[1];
      if (req.method === "POST" && req.url === "/servers") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const server = await startOAuthServer(JSON.parse(Buffer.concat(chunks).toString() || "{}"));
        const key = randomUUID();
        servers.set(key, server);
        return answer(201, { id: key, issuer: server.issuer, mcpUrl: server.mcpUrl });
      }
      const server = id ? servers.get(id) : undefined;
      if (!id || !server) return answer(404, { error: "no such server" });
      if (req.method === "DELETE") {
        servers.delete(id);
        await server.close();
        return answer(204);
      }
      const { registrations, exchanges, refreshes, authorizations } = server;
      const record: OAuthServerRecord = {
        registrations,
        exchanges,
        refreshes,
        authorizations,
        calls: server.inner.calls,
      };
      return answer(200, record);
    } catch (error) {
      answer(500, { error: String(error) });
    }
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await Promise.all([...servers.values()].map((server) => server.close()));
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
