// A conversation's log as a tree (docs/protocol.md "Branches"), for taking it along and bringing it back:
// the version that was shown (the path to the leaf, for the Markdown), and an imported log checked and
// numbered afresh (seqs 1…n in order, each message after an earlier one or none, a compaction's
// `through_seq` and the leaf moved with them), which is what the conversation object's `importLog`
// appends (durable-objects/conversation/log/log-import.ts). Pure.
import type { Conversation, Message, ModelRef } from "../../protocol";

/** A conversation's messages, every branch, numbered as its new log will number them. */
export interface NumberedLog {
  messages: Message[];
  leaf_seq: number;
}

/** A conversation an import brings in (an Oracle archive's or ChatGPT's), with its index row's fields. */
export interface ImportedConversation extends NumberedLog {
  title: string;
  title_source: NonNullable<Conversation["title_source"]>;
  created_at: string;
  updated_at: string;
  pinned: boolean;
  model?: ModelRef;
}

/** The messages of the path that ends at `leaf`, in seq order (a message without parent_seq follows seq - 1). */
export function pathTo(messages: readonly Message[], leaf: number): Message[] {
  const bySeq = new Map(messages.map((m) => [m.seq, m]));
  const path: Message[] = [];
  for (let at = bySeq.get(leaf); at && path.length < messages.length; at = bySeq.get(at.parent_seq ?? at.seq - 1))
    path.push(at);
  return path.reverse();
}

/**
 * The log numbered 1…n in seq order, or what is wrong with it in words. Every message must follow one
 * before it (`parent_seq` 0, or an earlier seq; absent: the one before it in the log), seqs must differ,
 * and the leaf must be one of the messages (or 0, an empty path).
 */
export function numberLog(messages: readonly Message[], leafSeq: number): NumberedLog | { problem: string } {
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  const renumbered = new Map<number, number>([[0, 0]]);
  const out: Message[] = [];
  for (const message of sorted) {
    if (renumbered.has(message.seq)) return { problem: `message ${message.seq} appears twice` };
    const { parent_seq: parent } = message;
    const parentSeq =
      parent === undefined ? (out.at(-1)?.seq ?? 0) : parent < message.seq ? renumbered.get(parent) : undefined;
    if (parentSeq === undefined)
      return { problem: `message ${message.seq} follows message ${parent}, which is not before it in the log` };
    const seq = out.length + 1;
    renumbered.set(message.seq, seq);
    out.push({ ...withThrough(message, renumbered), seq, parent_seq: parentSeq } as Message);
  }
  const leaf = renumbered.get(leafSeq);
  if (leaf === undefined) return { problem: `leaf_seq ${leafSeq} is not a message of the conversation` };
  return { messages: out, leaf_seq: leaf };
}

/** A compaction covers what it covered: its `through_seq` becomes the new seq of the last message at or before it. */
function withThrough(message: Message, renumbered: ReadonlyMap<number, number>): Message {
  if (message.role !== "system" || message.item.kind !== "compaction") return message;
  let through = 0;
  for (const [from, to] of renumbered) if (from <= message.item.through_seq) through = Math.max(through, to);
  return { ...message, item: { ...message.item, through_seq: through } };
}
