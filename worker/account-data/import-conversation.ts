// One imported conversation into the account: always a new one (a new id), its index row with the
// title and times it had, then its whole log, every branch, handed to its object in parts small enough
// for one call each (durable-objects/conversation/log/log-import.ts). The index row comes first: the
// object's index outbox writes the conversation's search text and preview only where the row exists.
// A conversation whose log could not be written is taken out again, so none is left half there.

import { deleteImportedConversation, insertImportedConversation } from "../../d1/account-import";
import { type Placement, shardDb } from "../../d1/shards";
import type { Message } from "../../protocol";
import type { ImportedConversation } from "./conversation-tree";

/** What one call to the object carries at most, as JSON: well under what a call may carry (32 MiB). */
const PART_CHARS = 4 * 1024 * 1024;

/** Imports the conversation; its new id. `model` is the conversation's model when the user has it. */
export async function importConversation(
  env: Env,
  owner: Placement,
  conversation: ImportedConversation,
  model: string | null,
): Promise<string> {
  const { userId } = owner;
  const shard = shardDb(env, owner.shard);
  const { title, title_source, created_at, updated_at, pinned } = conversation;
  const id = await insertImportedConversation(shard, userId, {
    title,
    title_source,
    created_at,
    updated_at,
    pinned,
    model,
  });
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
  const meta = { conversationId: id, userId, shard: owner.shard };
  try {
    const parts = inParts(conversation.messages);
    for (const [index, part] of parts.entries())
      await stub.importLog(meta, part, index === parts.length - 1 ? conversation.leaf_seq : undefined);
  } catch (error) {
    await stub.erase(meta).catch(() => {});
    await deleteImportedConversation(shard, userId, id);
    throw error;
  }
  return id;
}

function inParts(messages: readonly Message[]): Message[][] {
  const parts: Message[][] = [[]];
  let size = 0;
  for (const message of messages) {
    const length = JSON.stringify(message).length;
    if (size + length > PART_CHARS && parts.at(-1)?.length) {
      parts.push([]);
      size = 0;
    }
    parts.at(-1)?.push(message);
    size += length;
  }
  return parts;
}
