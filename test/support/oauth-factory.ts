// Real OAuth authorization servers for tests that run inside workerd, which cannot listen: the workers
// global setup starts a factory in Node (oauth-server.ts `startOAuthFactory`), and a test asks it over
// HTTP for a server of its own with the behaviour it needs (a hostile token endpoint, odd metadata, an
// open `initialize`, a step-up, a 2025-03-26 server, client ID metadata documents), reads what that
// server saw, and closes it. Only `fetch` is used here; oauth-server.ts imports the types.

declare module "vitest" {
  interface ProvidedContext {
    /** The factory of test/support/oauth-server.ts, e.g. "http://127.0.0.1:43125". */
    oauthFactoryUrl: string;
  }
}

export interface OAuthServerOptions {
  /** Lifetime of an access token (default one hour). */
  accessTokenSeconds?: number;
  /** Refuse dynamic client registration (the user must enter a client id). */
  noRegistration?: boolean;
  /** Fields laid over the authorization server's metadata (a huge field, a javascript: endpoint, CIMD support). */
  metadata?: Record<string, unknown>;
  /** The token endpoint refuses every code with invalid_grant and this error_description. */
  tokenError?: string;
  /** Every access token this long (a hostile server's 1 MiB token). */
  accessTokenChars?: number;
  /** `initialize` and notifications pass without a token; every other request needs one. */
  openInitialize?: boolean;
  /** A 2025-03-26 server: no resource or authorization server metadata; /authorize, /token, /register at the root. */
  noMetadata?: boolean;
  /** Scopes a tool's call needs: a token without them is answered 403 `insufficient_scope` naming them. */
  toolScopes?: Record<string, string[]>;
  /** Client ID metadata documents the server has fetched: the client id URL and the document's redirect URIs. */
  clientDocuments?: Record<string, { redirect_uris: string[] }>;
}

/** What a server saw, as the factory reports it. */
export interface OAuthServerRecord {
  registrations: number;
  exchanges: number;
  refreshes: number;
  /** Each authorization request: its client id and the scopes it asked for. */
  authorizations: { clientId: string; scopes: string[] }[];
  /** The tools called on the MCP server behind it. */
  calls: { tool: string; args: unknown }[];
}

export interface RemoteOAuthServer {
  issuer: string;
  mcpUrl: string;
  record(): Promise<OAuthServerRecord>;
  close(): Promise<void>;
}

export async function remoteOAuthServer(
  factoryUrl: string,
  options: OAuthServerOptions = {},
): Promise<RemoteOAuthServer> {
  const res = await fetch(`${factoryUrl}/servers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(options),
  });
  if (!res.ok) throw new Error(`POST /servers: ${res.status} ${await res.text()}`);
  const { id, issuer, mcpUrl } = (await res.json()) as { id: string; issuer: string; mcpUrl: string };
  return {
    issuer,
    mcpUrl,
    async record() {
      const answer = await fetch(`${factoryUrl}/servers/${id}`);
      if (!answer.ok) throw new Error(`GET /servers/${id}: ${answer.status}`);
      return answer.json();
    },
    async close() {
      await (await fetch(`${factoryUrl}/servers/${id}`, { method: "DELETE" })).body?.cancel();
    },
  };
}
