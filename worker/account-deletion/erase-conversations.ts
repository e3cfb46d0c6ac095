// Erasing every conversation of an account being deleted: each object stops its turn, closes its sockets,
// drops its alarm and deletes all of its storage (the log, the turn's record, waiting questions and
// approvals, queued runs: ConversationObject.erase), then its D1 rows go (the index, the search text).
// Subagents' conversations are the user's rows too, so they go with the rest; a turn still running when
// a slice was listed may start a subagent before it is stopped, so slices are listed until none is left.
// A slice's rows go as soon as its objects are erased, so a deletion the runtime cuts short (an account
// with thousands of conversations can pass a request's limit of calls) goes on where it stopped when it
// is run again.

import { conversationIdsOf, deleteConversationRows } from "../../d1/account-deletion";
import { type Placement, shardDb } from "../../d1/shards";

/** Conversations listed, erased and deleted at a time. */
const SLICE = 64;
/** Objects erased at once: enough to be quick, few enough not to flood the runtime with one account. */
const AT_ONCE = 8;
/** Far more slices than an account has: conversations that keep appearing are a fault, not to wait for. */
const MAX_SLICES = 10_000;

/** Erases every conversation of the user: how many. */
export async function eraseConversations(env: Env, owner: Placement): Promise<number> {
  const { userId } = owner;
  const shard = shardDb(env, owner.shard);
  let erased = 0;
  for (let slice = 0; slice < MAX_SLICES; slice++) {
    const ids = await conversationIdsOf(shard, userId, SLICE);
    if (!ids.length) return erased;
    await inParallel(ids, AT_ONCE, async (id) => {
      const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
      await stub.erase({ conversationId: id, userId, shard: owner.shard });
    });
    await deleteConversationRows(shard, userId, ids);
    erased += ids.length;
  }
  throw new Error(`conversations of ${userId} kept appearing while they were erased`);
}

/** Runs `work` on every item, at most `limit` at a time; the first failure fails the whole. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
