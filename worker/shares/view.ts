// What a share link shows (docs/protocol.md "Share links"): the path up to the link's leaf, read from the
// conversation's object at each view (nothing is copied, so revoking or deleting ends it at once), less
// what the owner left out, with their MCP servers' addresses replaced by the servers' names (and secrets hidden).
// What the conversation started from (the user's instructions, project and memories) is never shown.

import { isPersonalContext } from "../../agent/projects/context-item";
import { serverAddresses } from "../../d1/mcp-servers";
import { shardDb } from "../../d1/shards";
import type { ShareRow } from "../../d1/shares";
import type { Message, SharedConversation } from "../../protocol";
import { addressScrubber, scrubStrings } from "./scrub";

const stubFor = (env: Env, id: string) => env.CONVERSATION.get(env.CONVERSATION.idFromName(id));

/** The messages the link shows, in seq order. */
export function shownMessages(
  messages: Message[],
  row: Pick<ShareRow, "includeSystem" | "includeTools" | "includeFiles">,
): Message[] {
  return messages
    .filter((m) => (m.role !== "tool" || row.includeTools) && (m.role !== "system" || row.includeSystem))
    .filter((m) => !isPersonalContext(m))
    .map((m) => (row.includeFiles ? m : withoutFileText(m)));
}

/** Without files, a file's System message keeps its first line (name, type, size), not what the file says. */
function withoutFileText(m: Message): Message {
  if (m.role !== "system" || m.item.kind !== "file_attachment" || !m.item.file) return m;
  return { ...m, item: { ...m.item, body: m.item.body.split("\n", 1)[0] ?? "" } };
}

/** The files the link shows: those of its messages, when the owner included them. */
export const sharedFileIds = (view: SharedConversation): Set<string> =>
  new Set(
    view.share.include_files
      ? view.messages.flatMap((m) => (m.role === "user" ? (m.attachments ?? []).map((a) => a.id) : []))
      : [],
  );

export async function sharedView(env: Env, row: ShareRow, shard: number): Promise<SharedConversation> {
  const meta = { conversationId: row.conversationId, userId: row.userId, shard };
  // leaf_seq 0 is a link to an empty conversation: there is no path to read (and 0 is not "the current leaf").
  const [path, servers] = await Promise.all([
    row.leafSeq > 0 ? stubFor(env, row.conversationId).snapshot(meta, row.leafSeq) : { messages: [], leaf_seq: 0 },
    serverAddresses(shardDb(env, shard), row.userId, env.SECRETS_KEY),
  ]);
  const view: SharedConversation = {
    share: {
      id: row.id,
      title: row.title,
      created_at: row.createdAt,
      include_system: row.includeSystem,
      include_tools: row.includeTools,
      include_files: row.includeFiles,
    },
    messages: shownMessages(path.messages, row),
  };
  const scrub = addressScrubber(servers);
  return scrub ? scrubStrings(view, scrub) : view;
}
