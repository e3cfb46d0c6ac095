// Where an edit, a regenerate or a switch puts the conversation's current leaf (docs/protocol.md
// "Branches"), and the announcement every tab follows. The log stays append-only: a branch point only
// moves the leaf, and what is appended next follows it.
import { isReferenceMessage } from "../../../agent/references/resolve";
import type { ServerFrame, UserMessage } from "../../../protocol";
import type { MessageLog } from "./message-log";

export type BranchRefusal = { code: string; message: string };
type Point = { leaf: number } | BranchRefusal;

const invalid = (field: string, problem: string): BranchRefusal => ({
  code: "invalid_frame",
  message: `${field}: ${problem}`,
});

export class ConversationBranches {
  constructor(
    private readonly log: MessageLog,
    private readonly send: (frame: ServerFrame) => void,
  ) {}

  /** An edit of user message `seq`: the new version follows what `seq` follows. */
  editPoint(seq: number): Point {
    const message = this.log.get(seq);
    if (message?.role !== "user") return invalid("edit_seq", `no user message ${seq} in this conversation`);
    return { leaf: message.parent_seq ?? seq - 1 };
  }

  /** The user message an edit makes a new version of (its files carry into the new version). */
  edited(seq: number): UserMessage | undefined {
    const message = this.log.get(seq);
    return message?.role === "user" ? message : undefined;
  }

  /**
   * A regenerate of the turn holding `seq`: it runs again after its user message and the System messages
   * that message's references added (written right after it, so their seqs follow its own).
   */
  regeneratePoint(seq: number): Point {
    if (!this.log.has(seq)) return invalid("seq", `no message ${seq} in this conversation`);
    const user = this.log.pathTo(seq).findLast((m) => m.role === "user");
    if (!user) return invalid("seq", `message ${seq} does not follow a message of yours`);
    let end = user.seq;
    for (let next = this.log.get(end + 1); next && next.parent_seq === end && isReferenceMessage(next); ) {
      end = next.seq;
      next = this.log.get(end + 1);
    }
    return { leaf: end };
  }

  /** A switch to the version holding `seq`: the path goes through it to the newest message below it. */
  switchPoint(seq: number): Point {
    if (!this.log.has(seq)) return invalid("seq", `no message ${seq} in this conversation`);
    return { leaf: this.log.newestUnder(seq) };
  }

  /** Moves the leaf and tells every tab, before anything is appended on the new branch. */
  moveTo(leaf: number): void {
    this.log.moveLeaf(leaf);
    this.send({ type: "branch_switched", leaf_seq: leaf });
  }
}
