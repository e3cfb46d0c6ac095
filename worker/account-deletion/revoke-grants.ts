// The MCP servers' OAuth grants of an account being deleted, revoked at their authorization servers
// (RFC 7009: the refresh token, which ends the grant, and the access token) through the outbound guarded
// fetch. Best effort: a server without a revocation endpoint, one that refuses, or one that does not
// answer within REVOKE_TIMEOUT_MS never holds the deletion up; the tokens are deleted with the account.

import { and, eq, isNotNull } from "drizzle-orm";
import { database } from "../../d1/client";
import { revokeGrant } from "../../d1/mcp-oauth";
import { mcpServers } from "../../d1/schema";
import { type Placement, shardDb } from "../../d1/shards";
import { outboundPolicy } from "../../outbound/policy";

export const REVOKE_TIMEOUT_MS = 3_000;

/** Asks every authorization server that granted this user tokens to revoke them: how many tokens it accepted. */
export async function revokeMcpGrants(env: Env, owner: Placement): Promise<number> {
  const { userId } = owner;
  const shard = shardDb(env, owner.shard);
  const rows = await database(shard)
    .select()
    .from(mcpServers)
    .where(and(eq(mcpServers.userId, userId), isNotNull(mcpServers.sealedOauthTokens)));
  if (!rows.length) return 0;
  const deps = { db: shard, secretsKey: env.SECRETS_KEY, policy: outboundPolicy(env) };
  const signal = AbortSignal.timeout(REVOKE_TIMEOUT_MS);
  const revoked = await Promise.all(rows.map((row) => revokeGrant(deps, row, signal).catch(() => 0)));
  return revoked.reduce((sum, n) => sum + n, 0);
}
