// An MCP server's OAuth state in D1: the client registration and what discovery found, the tokens and the
// pending authorization, each sealed (core/secret-box.ts) and bound to its row and column. The flow's steps
// (start, callback, disconnect), the access token a connection uses, refreshed before it runs out, and the
// scopes a call was refused for (step-up: the next authorization asks for them with the granted ones).
// Refreshes race (two turns at once, the Worker's test): one request holds a short lease on the row and
// refreshes, the others wait for its tokens, so a rotated refresh token is used once and never lost.
import { and, eq } from "drizzle-orm";
import { openSecret, SecretsKeyMissing, sealSecret } from "../core/secret-box";
import type { OAuthClient, OAuthServer } from "../mcp/oauth";
import {
  MAX_OAUTH_VALUE_CHARS,
  missingScopes,
  needsRefresh,
  newState,
  OAuthAuthorizationNeeded,
  OAuthRefreshFailed,
  OAuthScopeNeeded,
  OAuthScopeRefused,
  PENDING_TTL_MS,
  type PendingAuthorization,
  pendingRefusal,
  type StoredTokens,
  scopeList,
  scopeUnion,
  serverOfState,
} from "../mcp/oauth-rules";
import type { OutboundPolicy } from "../outbound/policy";
import { mcpOAuthExpiredText, mcpOAuthScopeText } from "../protocol";
import { database, nowIso } from "./client";
import { mcpServers } from "./schema";

type Row = typeof mcpServers.$inferSelect;

/** What the OAuth steps need besides the row: D1, the sealing key and the outbound policy. */
export interface OAuthDeps {
  db: D1Database;
  secretsKey?: string;
  policy: OutboundPolicy;
}

/** The registration (absent when the user entered a client id) and discovery, sealed as one. */
interface StoredClient {
  server: OAuthServer;
  client?: OAuthClient;
  redirect_uri: string;
  /** The scope the client was registered with (an authorization server may refuse to grant more). */
  registered_scope?: string;
  /** The client id is the Worker's metadata document URL: nothing was registered. */
  metadata_document?: true;
}

/** A refresh holds the row this long at most; the others wait up to a little more. */
const LEASE_MS = 15_000;
const WAIT_STEP_MS = 200;

/** Each column opens only for its own user, row and column. */
const boundTo = (row: Pick<Row, "userId" | "id">, column: string) => `mcp_servers:${row.userId}:${row.id}:${column}`;

const seal = (deps: Pick<OAuthDeps, "secretsKey">, row: Row, column: string, value: unknown) =>
  sealSecret(deps.secretsKey, JSON.stringify(value), boundTo(row, column));

async function opened<T>(secretsKey: string | undefined, row: Row, column: string, sealed: string | null) {
  if (!sealed) return undefined;
  return JSON.parse(await openSecret(secretsKey, sealed, boundTo(row, column))) as T;
}

const loadOAuth = () => import("../mcp/oauth");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const whereRow = (row: Pick<Row, "userId" | "id">) => and(eq(mcpServers.userId, row.userId), eq(mcpServers.id, row.id));

async function reread(db: D1Database, row: Row): Promise<Row | undefined> {
  const [fresh] = await database(db).select().from(mcpServers).where(whereRow(row)).limit(1);
  return fresh;
}

/** The client the user entered (id, and its secret in sealed_secret), else the one the Worker registered. */
async function clientOf(secretsKey: string | undefined, row: Row): Promise<StoredClient & { client: OAuthClient }> {
  const stored = await opened<StoredClient>(secretsKey, row, "client", row.sealedOauthClient);
  const client = (await userClient(secretsKey, row)) ?? stored?.client;
  if (!stored || !client)
    throw new OAuthAuthorizationNeeded(`${row.name} is not connected; connect it in Settings → Tools`);
  return { ...stored, client };
}

/** A client id the user entered, with its secret (sealed_secret, bound like a bearer token). */
async function userClient(secretsKey: string | undefined, row: Row): Promise<OAuthClient | undefined> {
  if (!row.oauthClientId) return undefined;
  const secret = row.sealedSecret
    ? await openSecret(secretsKey, row.sealedSecret, `mcp_servers:${row.userId}:${row.id}`)
    : undefined;
  return { client_id: row.oauthClientId, ...(secret ? { client_secret: secret } : {}) };
}

/** Where the Worker's own pages are: its redirect URI, and its client ID metadata document when it has one. */
export interface OAuthClientUrls {
  redirectUri: string;
  /** An https URL serving the Worker's client metadata (worker/routes/oauth-client.ts), if it has one. */
  clientIdUrl?: string;
}

/**
 * An earlier registration with this server, for this redirect URI and covering `scope`, is used again
 * (with the scope it was registered with); a step-up to scopes it lacks registers anew.
 */
function reusable(earlier: StoredClient | undefined, server: OAuthServer, redirectUri: string, scope?: string) {
  if (!earlier?.client || earlier.metadata_document) return undefined;
  if (earlier.server.as_url !== server.as_url || earlier.redirect_uri !== redirectUri) return undefined;
  const registeredScope = earlier.registered_scope ?? earlier.server.scope;
  const registered = new Set(scopeList(registeredScope));
  if (registered.size && !scopeList(scope).every((s) => registered.has(s))) return undefined;
  return { client: earlier.client, ...(registeredScope ? { registered_scope: registeredScope } : {}) };
}

/**
 * Discovers the authorization server, picks the client (the one the user gave; else the Worker's
 * metadata document URL where the server takes one; else an earlier registration that fits; else a new
 * one), and keeps the state and PKCE verifier sealed on the row: the URL to open. The scope asked for
 * is the server's, with what was granted before and what a call was refused for (step-up).
 */
export async function startOAuth(deps: OAuthDeps, row: Row, urls: OAuthClientUrls): Promise<string> {
  const oauth = await loadOAuth();
  const { redirectUri } = urls;
  const server = await oauth.discoverServer(row.url, deps.policy);
  const scope = scopeUnion(server.scope, row.oauthScopes, row.oauthNeededScopes);
  const earlier = await opened<StoredClient>(deps.secretsKey, row, "client", row.sealedOauthClient).catch(
    () => undefined,
  );
  const given = await userClient(deps.secretsKey, row);
  const document = given ? undefined : oauth.metadataDocumentClient(server, urls.clientIdUrl);
  const registration =
    given || document
      ? undefined
      : (reusable(earlier, server, redirectUri, scope) ?? {
          client: await oauth.registerOracle(server, redirectUri, scope, deps.policy),
          ...(scope ? { registered_scope: scope } : {}),
        });
  const client = given ?? document ?? registration?.client;
  if (!client) throw new Error("no OAuth client");
  const state = newState(row.id);
  const { url, verifier } = await oauth.authorizationUrl(
    server,
    client,
    { redirectUri, state, ...(scope ? { scope } : {}) },
    deps.policy,
  );
  const pending: PendingAuthorization = {
    state,
    verifier,
    redirect_uri: redirectUri,
    expires_at: new Date(Date.now() + PENDING_TTL_MS).toISOString(),
    ...(scope ? { scope } : {}),
  };
  const stored: StoredClient = {
    server,
    redirect_uri: redirectUri,
    ...(document ? { client: document, metadata_document: true } : {}),
    ...registration,
  };
  await database(deps.db)
    .update(mcpServers)
    .set({
      sealedOauthClient: await seal(deps, row, "client", stored),
      sealedOauthPending: await seal(deps, row, "pending", pending),
      updatedAt: nowIso(),
    })
    .where(whereRow(row));
  return url;
}

export type CallbackRefusal = "unknown_state" | "no_pending" | "mismatch" | "expired" | "used";
export type CallbackOutcome =
  | { refused: CallbackRefusal }
  | { row: Row; outcome: "connected" | "denied" | "failed"; error?: string };

/**
 * The authorization server's redirect. The state must name one of this user's servers and equal its
 * pending state, unexpired; it is cleared in the same statement that checks it is still there, so it
 * works once. A refusal changes nothing. An exchange that fails (an answer refused, too large, not
 * OAuth) is the outcome "failed" with its reason in words, the server as it was: Connect starts anew.
 */
export async function completeOAuth(
  deps: OAuthDeps,
  userId: string,
  query: { state: string; code?: string; error?: string },
): Promise<CallbackOutcome> {
  const id = serverOfState(query.state);
  if (!id) return { refused: "unknown_state" };
  const [row] = await database(deps.db)
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.userId, userId), eq(mcpServers.id, id)))
    .limit(1);
  if (row?.authType !== "oauth" || !row.sealedOauthPending) return { refused: "unknown_state" };
  const pending = await opened<PendingAuthorization>(deps.secretsKey, row, "pending", row.sealedOauthPending).catch(
    () => undefined,
  );
  const refusal = pendingRefusal(pending, query.state, Date.now());
  if (refusal || !pending) return { refused: refusal ?? "no_pending" };
  const claimed = await deps.db
    .prepare(
      "UPDATE mcp_servers SET sealed_oauth_pending = NULL WHERE user_id = ? AND id = ? AND sealed_oauth_pending = ? RETURNING id",
    )
    .bind(row.userId, row.id, row.sealedOauthPending)
    .first();
  if (!claimed) return { refused: "used" };
  if (query.error || !query.code) return { row, outcome: "denied" };
  const oauth = await loadOAuth();
  let columns: Awaited<ReturnType<typeof tokenColumns>>;
  try {
    const { server, client } = await clientOf(deps.secretsKey, row);
    const tokens = await oauth.exchangeCode(
      server,
      client,
      {
        code: query.code,
        verifier: pending.verifier,
        redirectUri: pending.redirect_uri,
        ...(pending.scope ? { requested: pending.scope } : {}),
      },
      deps.policy,
    );
    columns = await tokenColumns(deps, row, tokens);
  } catch (error) {
    if (error instanceof SecretsKeyMissing) throw error;
    return { row, outcome: "failed", error: oauth.errorText(error) };
  }
  // A new grant holds what was asked, step-up scopes included: nothing is needed any more.
  const [saved] = await database(deps.db)
    .update(mcpServers)
    .set({ ...columns, oauthNeededScopes: null, oauthStatus: "connected", updatedAt: nowIso() })
    .where(whereRow(row))
    .returning();
  return { row: saved ?? row, outcome: "connected" };
}

async function tokenColumns(deps: OAuthDeps, row: Row, tokens: StoredTokens) {
  return {
    sealedOauthTokens: await seal(deps, row, "tokens", tokens),
    oauthExpiresAt: tokens.expires_at,
    oauthScopes: tokens.scope ?? null,
    oauthRefreshLease: null,
  };
}

/** Forgets the tokens after asking the authorization server to revoke them (RFC 7009) where it can. */
export async function disconnectOAuth(deps: OAuthDeps, row: Row): Promise<{ revoked: boolean; row: Row }> {
  let revoked = false;
  const tokens = await opened<StoredTokens>(deps.secretsKey, row, "tokens", row.sealedOauthTokens).catch(
    () => undefined,
  );
  if (tokens) {
    const oauth = await loadOAuth();
    const stored = await clientOf(deps.secretsKey, row).catch(() => undefined);
    if (stored) {
      const token = tokens.refresh_token
        ? { value: tokens.refresh_token, hint: "refresh_token" as const }
        : { value: tokens.access_token, hint: "access_token" as const };
      revoked = await oauth.revokeToken(stored.server, stored.client, token, deps.policy);
    }
  }
  const [saved] = await database(deps.db)
    .update(mcpServers)
    .set({ ...FORGOTTEN, oauthStatus: "needs_authorization", updatedAt: nowIso() })
    .where(whereRow(row))
    .returning();
  return { revoked, row: saved ?? row };
}

/**
 * Account deletion (worker/account-deletion/): asks the authorization server to revoke the grant's
 * refresh and access tokens (RFC 7009), giving up at `signal`. Best effort, and nothing is written (the
 * row goes with the account): how many of the tokens the server said it revoked.
 */
export async function revokeGrant(deps: OAuthDeps, row: Row, signal?: AbortSignal): Promise<number> {
  const tokens = await opened<StoredTokens>(deps.secretsKey, row, "tokens", row.sealedOauthTokens).catch(
    () => undefined,
  );
  const stored = tokens && (await clientOf(deps.secretsKey, row).catch(() => undefined));
  if (!tokens || !stored) return 0;
  const oauth = await loadOAuth();
  const asked = [
    ...(tokens.refresh_token ? [{ value: tokens.refresh_token, hint: "refresh_token" as const }] : []),
    { value: tokens.access_token, hint: "access_token" as const },
  ];
  const revoked = await Promise.all(
    asked.map((token) => oauth.revokeToken(stored.server, stored.client, token, deps.policy, signal)),
  );
  return revoked.filter(Boolean).length;
}

/** The columns that hold a grant, cleared. */
export const FORGOTTEN = {
  sealedOauthTokens: null,
  sealedOauthPending: null,
  oauthExpiresAt: null,
  oauthScopes: null,
  oauthNeededScopes: null,
  oauthRefreshLease: null,
} as const;

function needsUser(row: Row): OAuthAuthorizationNeeded {
  return new OAuthAuthorizationNeeded(
    row.oauthStatus === "expired"
      ? mcpOAuthExpiredText(row.name)
      : `${row.name} is not connected yet; connect it in Settings → Tools`,
  );
}

/**
 * The access token to send, refreshed first when it is within a minute of its expiry, or when `rejected`
 * (the token the server just answered 401 to) is still the stored one.
 */
export async function accessToken(deps: OAuthDeps, row: Row, rejected?: string): Promise<string> {
  let current = row;
  for (let waited = 0; waited <= LEASE_MS + 5_000; ) {
    if (current.oauthStatus !== "connected" || !current.sealedOauthTokens) throw needsUser(current);
    const tokens = await opened<StoredTokens>(deps.secretsKey, current, "tokens", current.sealedOauthTokens);
    if (!tokens) throw needsUser(current);
    const stale = rejected !== undefined && tokens.access_token === rejected;
    if (!stale && !needsRefresh(tokens, Date.now())) return tokens.access_token;
    const lease = await takeLease(deps.db, current);
    if (lease) return refreshUnderLease(deps, current, tokens, lease);
    // Another request is refreshing: wait for its tokens (or for its lease to lapse).
    await sleep(WAIT_STEP_MS);
    waited += WAIT_STEP_MS;
    const fresh = await reread(deps.db, current);
    if (!fresh) throw needsUser({ ...current, oauthStatus: "needs_authorization" });
    current = fresh;
  }
  throw new OAuthRefreshFailed("the authorization could not be refreshed in time; try again");
}

/** One statement: the lease is taken only if the tokens are still those read and no live lease holds. */
async function takeLease(db: D1Database, row: Row): Promise<string | undefined> {
  const now = new Date();
  const lease = `${new Date(now.getTime() + LEASE_MS).toISOString()}#${crypto.randomUUID()}`;
  const taken = await db
    .prepare(
      `UPDATE mcp_servers SET oauth_refresh_lease = ?1
       WHERE user_id = ?2 AND id = ?3 AND sealed_oauth_tokens = ?4
         AND (oauth_refresh_lease IS NULL OR oauth_refresh_lease < ?5) RETURNING id`,
    )
    .bind(lease, row.userId, row.id, row.sealedOauthTokens, now.toISOString())
    .first();
  return taken ? lease : undefined;
}

async function refreshUnderLease(deps: OAuthDeps, row: Row, tokens: StoredTokens, lease: string): Promise<string> {
  const oauth = await loadOAuth();
  const held = and(whereRow(row), eq(mcpServers.oauthRefreshLease, lease));
  if (!tokens.refresh_token) {
    await markExpired(deps.db, held);
    throw needsUser({ ...row, oauthStatus: "expired" });
  }
  let fresh: StoredTokens;
  try {
    const { server, client } = await clientOf(deps.secretsKey, row);
    const refresh = { token: tokens.refresh_token, ...(tokens.scope ? { granted: tokens.scope } : {}) };
    fresh = await oauth.refreshTokens(server, client, refresh, deps.policy);
  } catch (error) {
    if (oauth.isGrantRefused(error) || error instanceof OAuthAuthorizationNeeded) {
      await markExpired(deps.db, held);
      throw needsUser({ ...row, oauthStatus: "expired" });
    }
    await database(deps.db).update(mcpServers).set({ oauthRefreshLease: null }).where(held);
    throw new OAuthRefreshFailed(`could not refresh the authorization (${oauth.errorText(error)})`);
  }
  await database(deps.db)
    .update(mcpServers)
    .set(await tokenColumns(deps, row, fresh))
    .where(held);
  return fresh.access_token;
}

async function markExpired(db: D1Database, where: ReturnType<typeof and>): Promise<void> {
  await database(db)
    .update(mcpServers)
    .set({ ...FORGOTTEN, oauthStatus: "expired", updatedAt: nowIso() })
    .where(where);
}

/**
 * A call answered 403 `insufficient_scope` naming `challenged`: the scopes the grant lacks are kept on
 * the row (Settings offers Reconnect, which asks for them with the granted ones), and the error the call
 * ends with says so. When it names only scopes already granted, nothing is kept: authorizing again could
 * not help, so it is never asked for (no loop).
 */
export async function scopeChallenge(db: D1Database, row: Row, challenged: string | undefined): Promise<Error> {
  const current = (await reread(db, row)) ?? row;
  const missing = missingScopes(challenged, current.oauthScopes);
  const needed = scopeUnion(current.oauthNeededScopes, missing.join(" "));
  if (!missing.length || !needed || needed.length > MAX_OAUTH_VALUE_CHARS)
    return new OAuthScopeRefused(
      `${row.name} refused access although the authorization holds the scopes it asks for${challenged && missing.length === 0 ? ` (${scopeList(challenged).join(", ")})` : ""}`,
    );
  await database(db).update(mcpServers).set({ oauthNeededScopes: needed, updatedAt: nowIso() }).where(whereRow(row));
  return new OAuthScopeNeeded(mcpOAuthScopeText(row.name, scopeList(needed)));
}
