// The conversations whose object holds a copy of what it read of its user (schema.ts
// liveConversations): registered in the same batch as the read it copies, listed when the user's
// settings or credentials change, removed when the copy is dropped.
import { and, eq } from "drizzle-orm";
import { database } from "./client";
import { liveConversations } from "./schema";

/** The statement that registers a copy (for the batch that reads what it holds). */
export const registerLiveQuery = (d1: D1Database, userId: string, conversationId: string, epoch: string) =>
  database(d1)
    .insert(liveConversations)
    .values({ userId, conversationId, epoch })
    .onConflictDoUpdate({ target: [liveConversations.userId, liveConversations.conversationId], set: { epoch } });

export async function liveConversationsOf(
  d1: D1Database,
  userId: string,
): Promise<{ conversationId: string; epoch: string }[]> {
  return database(d1)
    .select({ conversationId: liveConversations.conversationId, epoch: liveConversations.epoch })
    .from(liveConversations)
    .where(eq(liveConversations.userId, userId));
}

/** Removes the registration of that one copy; a newer one (another epoch) stays. */
export async function forgetLive(d1: D1Database, userId: string, conversationId: string, epoch: string) {
  await database(d1)
    .delete(liveConversations)
    .where(
      and(
        eq(liveConversations.userId, userId),
        eq(liveConversations.conversationId, conversationId),
        eq(liveConversations.epoch, epoch),
      ),
    );
}
