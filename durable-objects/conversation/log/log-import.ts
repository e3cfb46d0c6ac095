// A whole log brought into a new conversation (docs/protocol.md "Export and import"): every branch of
// an exported conversation or a ChatGPT one, each message after the one it followed and with its own
// time, then the version that was shown as the current leaf. The Worker has checked and numbered the
// tree (worker/account-data/conversation-tree.ts), and sends a long log in parts: each part's seqs go on
// from the log's last, and each message follows an earlier one (or none: 0).
import type { Message, MessageDraft } from "../../../protocol";
import type { MessageLog } from "./message-log";

export async function importTree(log: MessageLog, messages: readonly Message[], leafSeq?: number): Promise<number> {
  for (const message of messages) {
    const { seq, id: _id, created_at, parent_seq, ...draft } = message;
    const parent = parent_seq ?? seq - 1;
    if (seq !== log.lastSeq + 1 || parent < 0 || parent >= seq)
      throw new Error(`imported message ${seq} (after ${parent}) does not go on from message ${log.lastSeq}`);
    // The log appends after its leaf: a message of another branch is appended after its own parent.
    log.moveLeaf(parent);
    await log.append(draft as MessageDraft, created_at);
  }
  if (leafSeq !== undefined) log.moveLeaf(leafSeq);
  return log.lastSeq;
}
