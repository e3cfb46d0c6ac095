// Erasing every conversation object of an account being deleted: each object stops its turn, closes
// its sockets, drops its alarm and deletes all of its storage (the log, the turn's record, waiting
// questions and approvals, queued runs: ConversationObject.erase). Subagents' conversations are the
// user's rows too, so they are erased with the rest; a turn still running when the listing was read may
// start a subagent before it is stopped, so the listing is read again until it holds nothing new.
import { conversationIdsOf } from "../../d1/account-deletion";

/** Objects erased at once: enough to be quick, few enough not to flood the runtime with one account. */
const AT_ONCE = 8;
/** Listings read at most: each round stops every turn that could start another subagent. */
const ROUNDS = 5;

export async function eraseConversations(env: Env, userId: string): Promise<number> {
  const erased = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const fresh = (await conversationIdsOf(env.DB, userId)).filter((id) => !erased.has(id));
    if (!fresh.length) return erased.size;
    await inParallel(fresh, AT_ONCE, async (id) => {
      const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
      await stub.erase({ conversationId: id, userId });
      erased.add(id);
    });
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
