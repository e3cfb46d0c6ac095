// Telling a user's live conversations that what their objects copied of the user changed
// (conversation/user-cache.ts): the Worker's routes call it after a write to the user's settings,
// providers, MCP servers, approval rules or a conversation's model, and after a credential is revoked;
// the object calls it after an approval the user made "always allow". It returns once every object
// has dropped its copy (and, for a revocation, closed the sockets it signed out), so the write's
// answer means the next turn sees it.
import { forgetLive, liveConversationsOf } from "../d1/live-conversations";
import { type Placement, shardDb } from "../d1/shards";

/** A conversation's owner as user-changes need it: a meta from before shards is shard 0's. */
export const owner = (meta: { userId: string; shard?: number }): Placement => ({
  userId: meta.userId,
  shard: meta.shard ?? 0,
});

/** `settings`: what a turn starts from; `credentials`: a session or token was revoked (sockets re-checked now). */
export type UserChange = "settings" | "credentials";

export async function tellUserChanged(
  env: Env,
  { userId, shard }: Placement,
  change: UserChange,
  /** The conversation that made the change and dropped its own copy already. */
  from?: string,
): Promise<void> {
  const d1 = shardDb(env, shard);
  const rows = await liveConversationsOf(d1, userId);
  await Promise.all(
    rows
      .filter((row) => row.conversationId !== from)
      .map(async ({ conversationId, epoch }) => {
        try {
          const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));
          // An object that holds no copy (evicted, or its sockets closed) no longer needs telling.
          if (!(await stub.userChanged(change))) await forgetLive(d1, userId, conversationId, epoch);
        } catch (error) {
          // The copy's age bounds what this object misses (COPY_TTL_MS).
          console.warn("user change not delivered", conversationId, error);
        }
      }),
  );
}
