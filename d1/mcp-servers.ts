// The user's MCP servers in D1, shared by the /api/mcp-servers routes and the conversation object.
// Every statement is scoped by user id: another user's server is indistinguishable from a missing one.
// The secret is sealed before it is written and opened only to connect (endpointOf); no answer holds it.
import { and, asc, eq } from "drizzle-orm";
import { openSecret, sealSecret } from "../core/secret-box";
import type { McpEndpoint } from "../mcp/client";
import { OAuthAuthorizationNeeded, scopeList } from "../mcp/oauth-rules";
import {
  MAX_MCP_SERVERS,
  type McpAuthInfo,
  type McpAuthInput,
  type McpServer,
  type McpServerCreate,
  type McpServerPatch,
  mcpOAuthExpiredText,
  qualifiedToolName,
} from "../protocol";
import { database, nowIso } from "./client";
import { accessToken, FORGOTTEN, type OAuthDeps, scopeChallenge } from "./mcp-oauth";
import { mcpServers } from "./schema";

export type McpServerRow = typeof mcpServers.$inferSelect;

/** What Settings shows of a tool the last test found. */
interface StoredTool {
  name: string;
  description: string;
  /** The server's readOnlyHint (absent in rows written before it was kept). */
  read_only?: boolean;
}

const parseList = <T>(json: string): T[] => {
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
};

/** A sealed secret opens only for its own user and row. */
const boundTo = (row: Pick<McpServerRow, "userId" | "id">) => `mcp_servers:${row.userId}:${row.id}`;

function authInfo(row: McpServerRow): McpAuthInfo {
  if (row.authType === "oauth") {
    const status = row.oauthStatus ?? "needs_authorization";
    return {
      type: "oauth",
      status,
      expires_at: status === "connected" ? row.oauthExpiresAt : null,
      scopes: scopeList(row.oauthScopes),
      client_id: row.oauthClientId,
      error: status === "expired" ? mcpOAuthExpiredText(row.name) : null,
      needed_scopes: status === "connected" ? scopeList(row.oauthNeededScopes) : [],
    };
  }
  if (row.authType === "bearer") return { type: "bearer" };
  if (row.authType === "header") return { type: "header", name: row.authHeader ?? "" };
  return { type: "none" };
}

/** The server as the API answers it: everything but the secret. */
export function toMcpServer(row: McpServerRow): McpServer {
  const disabled = parseList<string>(row.disabledTools);
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    enabled: row.enabled,
    auth: authInfo(row),
    tools: parseList<StoredTool>(row.tools).map((t) => ({
      name: t.name,
      qualified_name: qualifiedToolName(row.name, t.name),
      description: t.description,
      enabled: !disabled.includes(t.name),
      read_only: t.read_only === true,
    })),
    disabled_tools: disabled,
    checked_at: row.checkedAt,
    last_error: row.lastError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The columns an auth input sets, its secret sealed for this row. */
async function authColumns(auth: McpAuthInput, row: Pick<McpServerRow, "userId" | "id">, secretsKey?: string) {
  // Any auth given replaces the stored one: an OAuth grant and registration are forgotten with it.
  const oauth = { ...FORGOTTEN, sealedOauthClient: null, oauthClientId: null, oauthStatus: null };
  if (auth.type === "none") return { ...oauth, authType: "none" as const, authHeader: null, sealedSecret: null };
  if (auth.type === "oauth")
    return {
      ...oauth,
      authType: "oauth" as const,
      authHeader: null,
      oauthClientId: auth.client_id ?? null,
      oauthStatus: "needs_authorization" as const,
      sealedSecret: auth.client_secret ? await sealSecret(secretsKey, auth.client_secret, boundTo(row)) : null,
    };
  const secret = auth.type === "bearer" ? auth.token : auth.value;
  return {
    ...oauth,
    authType: auth.type,
    authHeader: auth.type === "header" ? auth.name : null,
    sealedSecret: await sealSecret(secretsKey, secret, boundTo(row)),
  };
}

export const enabledMcpServersQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.userId, userId), eq(mcpServers.enabled, true)))
    .orderBy(asc(mcpServers.name));

export async function listMcpServers(d1: D1Database, userId: string): Promise<McpServer[]> {
  const rows = await database(d1)
    .select()
    .from(mcpServers)
    .where(eq(mcpServers.userId, userId))
    .orderBy(asc(mcpServers.name));
  return rows.map(toMcpServer);
}

export async function getMcpServerRow(d1: D1Database, userId: string, id: string): Promise<McpServerRow | undefined> {
  const [row] = await database(d1)
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.userId, userId), eq(mcpServers.id, id)))
    .limit(1);
  return row;
}

export type SaveRefusal = "name_taken" | "too_many";
type Saved = { server: McpServer } | { refused: SaveRefusal };

const isUniqueViolation = (error: unknown) => String((error as Error)?.message ?? error).includes("UNIQUE");

export async function createMcpServer(
  d1: D1Database,
  userId: string,
  input: McpServerCreate,
  secretsKey?: string,
): Promise<Saved> {
  const id = crypto.randomUUID();
  const auth = await authColumns(input.auth, { userId, id }, secretsKey);
  try {
    // One statement: the cap holds however many requests race (no count-then-insert gap).
    const row = await d1
      .prepare(
        `INSERT INTO mcp_servers (id, user_id, name, url, enabled, auth_type, auth_header, sealed_secret,
                                  oauth_client_id, oauth_status)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, ?11
         WHERE (SELECT count(*) FROM mcp_servers WHERE user_id = ?2) < ?9
         RETURNING id`,
      )
      .bind(
        id,
        userId,
        input.name,
        input.url,
        input.enabled ? 1 : 0,
        auth.authType,
        auth.authHeader,
        auth.sealedSecret,
        MAX_MCP_SERVERS,
        auth.oauthClientId,
        auth.oauthStatus,
      )
      .first<{ id: string }>();
    if (!row) return { refused: "too_many" };
  } catch (error) {
    if (isUniqueViolation(error)) return { refused: "name_taken" };
    throw error;
  }
  const created = await getMcpServerRow(d1, userId, id);
  if (!created) throw new Error("mcp server insert returned no row");
  return { server: toMcpServer(created) };
}

export async function updateMcpServer(
  d1: D1Database,
  row: McpServerRow,
  patch: McpServerPatch,
  secretsKey?: string,
): Promise<Saved> {
  const urlChanged = patch.url !== undefined && patch.url !== row.url;
  const set: Partial<McpServerRow> = {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.url !== undefined && { url: patch.url }),
    ...(patch.enabled !== undefined && { enabled: patch.enabled }),
    ...(patch.disabled_tools !== undefined && { disabledTools: JSON.stringify([...new Set(patch.disabled_tools)]) }),
    ...(patch.auth !== undefined && (await authColumns(patch.auth, row, secretsKey))),
    // What the old URL offered says nothing about the new one; nor does a grant or registration for it.
    ...(urlChanged && { tools: "[]", checkedAt: null, lastError: null }),
    ...(urlChanged &&
      row.authType === "oauth" &&
      patch.auth === undefined && {
        ...FORGOTTEN,
        sealedOauthClient: null,
        oauthStatus: "needs_authorization" as const,
      }),
    updatedAt: nowIso(),
  };
  try {
    const [updated] = await database(d1)
      .update(mcpServers)
      .set(set)
      .where(and(eq(mcpServers.userId, row.userId), eq(mcpServers.id, row.id)))
      .returning();
    if (!updated) throw new Error("mcp server vanished during update");
    return { server: toMcpServer(updated) };
  } catch (error) {
    if (isUniqueViolation(error)) return { refused: "name_taken" };
    throw error;
  }
}

export async function deleteMcpServer(d1: D1Database, userId: string, id: string): Promise<boolean> {
  const gone = await database(d1)
    .delete(mcpServers)
    .where(and(eq(mcpServers.userId, userId), eq(mcpServers.id, id)))
    .returning({ id: mcpServers.id });
  return gone.length > 0;
}

/** A connection test's outcome: the tools found (kept for Settings) or the error. */
export async function recordMcpTest(
  d1: D1Database,
  row: McpServerRow,
  outcome: { tools: { name: string; description: string; readOnly?: boolean }[] } | { error: string },
): Promise<McpServer> {
  const set =
    "tools" in outcome
      ? {
          tools: JSON.stringify(
            outcome.tools.map((t) => ({
              name: t.name,
              description: t.description,
              ...(t.readOnly ? { read_only: true } : {}),
            })),
          ),
          lastError: null,
        }
      : { lastError: outcome.error };
  const [updated] = await database(d1)
    .update(mcpServers)
    .set({ ...set, checkedAt: nowIso() })
    .where(and(eq(mcpServers.userId, row.userId), eq(mcpServers.id, row.id)))
    .returning();
  return toMcpServer(updated ?? row);
}

/** The tool names (the server's own) the user switched off. */
export const disabledToolsOf = (row: McpServerRow): string[] => parseList<string>(row.disabledTools);

/**
 * Each of the user's servers by name with its URL and, where one is stored and can be opened, its secret:
 * what a shared page must hide (worker/shares/scrub.ts), never part of an answer itself.
 */
export async function serverAddresses(
  d1: D1Database,
  userId: string,
  secretsKey?: string,
): Promise<{ name: string; url: string; secret?: string }[]> {
  const rows = await database(d1).select().from(mcpServers).where(eq(mcpServers.userId, userId));
  return Promise.all(
    rows.map(async (row) => {
      const secret = row.sealedSecret
        ? await openSecret(secretsKey, row.sealedSecret, boundTo(row)).catch(() => undefined)
        : undefined;
      return { name: row.name, url: row.url, ...(secret ? { secret } : {}) };
    }),
  );
}

/**
 * How to reach the server, its secret opened: only for the connection, never for an answer. An OAuth
 * server's access token is refreshed first when it is about to run out (given `oauth`), and the endpoint
 * can refresh it once more when the server answers 401 (`reauthorize`); a 403 `insufficient_scope` keeps
 * the scopes it asks for on the row (`stepUp`).
 */
export async function endpointOf(row: McpServerRow, secretsKey?: string, oauth?: OAuthDeps): Promise<McpEndpoint> {
  if (row.authType === "oauth") return oauthEndpoint(row, secretsKey, oauth);
  const headers: Record<string, string> = {};
  if (row.sealedSecret) {
    const secret = await openSecret(secretsKey, row.sealedSecret, boundTo(row));
    if (row.authType === "bearer") headers.Authorization = `Bearer ${secret}`;
    else if (row.authType === "header" && row.authHeader) headers[row.authHeader] = secret;
  }
  return { name: row.name, url: row.url, headers };
}

async function oauthEndpoint(row: McpServerRow, secretsKey?: string, deps?: OAuthDeps): Promise<McpEndpoint> {
  if (!deps) {
    // Without D1 to refresh through, the stored token as it is (the server says so if it ran out).
    if (row.oauthStatus !== "connected" || !row.sealedOauthTokens)
      throw new OAuthAuthorizationNeeded(mcpOAuthExpiredText(row.name));
    const tokens = JSON.parse(
      await openSecret(secretsKey, row.sealedOauthTokens, `mcp_servers:${row.userId}:${row.id}:tokens`),
    ) as { access_token: string };
    return { name: row.name, url: row.url, headers: { Authorization: `Bearer ${tokens.access_token}` } };
  }
  const withKey = { ...deps, secretsKey };
  let token = await accessToken(withKey, row);
  return {
    name: row.name,
    url: row.url,
    headers: { Authorization: `Bearer ${token}` },
    reauthorize: async () => {
      const fresh = await getMcpServerRow(deps.db, row.userId, row.id);
      if (!fresh) throw new OAuthAuthorizationNeeded(`${row.name} was deleted`);
      token = await accessToken(withKey, fresh, token);
      return { Authorization: `Bearer ${token}` };
    },
    stepUp: (scope) => scopeChallenge(deps.db, row, scope),
  };
}
