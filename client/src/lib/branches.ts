// A conversation as a tree of branches (docs/protocol.md "Branches"): every message follows its
// parent_seq (seq - 1 from a server older than branches), the chat shows the path that ends at the
// current leaf, and siblings (messages with the same parent) are versions of each other. Pure, so it
// is tested without a browser; every function here is O(n) or less per render, never O(n²).
import type { Message } from "../../../protocol";
import { isFinalAnswer } from "./transcript";

/** The message `message` follows on its branch; 0 for the first. */
export function parentOf(message: Message): number {
  return message.parent_seq ?? message.seq - 1;
}

/** Who follows whom: each message's children in seq order (oldest version first). */
export type BranchTree = {
  messages: ReadonlyMap<number, Message>;
  children: ReadonlyMap<number, readonly number[]>;
};

export function buildTree(messages: ReadonlyMap<number, Message>): BranchTree {
  const children = new Map<number, number[]>();
  for (const message of messages.values()) {
    const parent = parentOf(message);
    const list = children.get(parent);
    if (list) list.push(message.seq);
    else children.set(parent, [message.seq]);
  }
  // Messages may arrive out of seq order (live ones, then a resume): sort the lists that need it.
  for (const list of children.values()) if (list.length > 1) list.sort((a, b) => a - b);
  return { messages, children };
}

/** The messages from the first one down to `leaf`, in order (as far back as they are held). */
export function pathTo(messages: ReadonlyMap<number, Message>, leaf: number): Message[] {
  const path: Message[] = [];
  let message = messages.get(leaf);
  while (message) {
    path.push(message);
    const parent = parentOf(message);
    // A parent always comes before its child on the log; the guard keeps a bad frame from looping.
    if (parent >= message.seq) break;
    message = messages.get(parent);
  }
  return path.reverse();
}

/** The versions of message `seq` (its parent's children, oldest first) and which of them it is. */
export type Versions = { seqs: readonly number[]; index: number };

/**
 * A question's versions are the questions among its siblings; a turn's are the siblings that are not
 * questions. The two can share a parent: a turn regenerated after its question was answered by
 * nothing and the user had moved on, or a notify that arrived while an older version was shown.
 */
export function versionsOf(tree: BranchTree, seq: number): Versions {
  const message = tree.messages.get(seq);
  if (!message) return { seqs: [seq], index: 0 };
  const isQuestion = message.role === "user";
  const siblings = tree.children.get(parentOf(message)) ?? [seq];
  const seqs = siblings.filter((s) => (tree.messages.get(s)?.role === "user") === isQuestion);
  return { seqs, index: Math.max(0, seqs.indexOf(seq)) };
}

/** The newest message at or below `seq`: where the path goes on to when one switches to `seq`. */
export function newestLeaf(tree: BranchTree, seq: number): number {
  let newest = seq;
  const stack = [seq];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    newest = Math.max(newest, next);
    stack.push(...(tree.children.get(next) ?? []));
  }
  return newest;
}

/** A tool whose effects live outside the log (notes, tasks, anything an MCP server does). */
export function writesOutside(message: Message): boolean {
  if (message.role !== "tool" || message.status !== "success") return false;
  return (
    message.tool === "vault_write" ||
    message.tool === "task_create" ||
    message.tool === "task_update" ||
    message.tool.includes("__") // `<server>__<tool>`: an MCP tool, whose effects we cannot know
  );
}

/**
 * The messages under which (themselves included) some tool changed notes, tasks or an MCP server's
 * world. One pass from the newest message back, since a parent always has a smaller seq than its child.
 */
export function subtreesWithWrites(tree: BranchTree): ReadonlySet<number> {
  const marked = new Set<number>();
  const seqs = [...tree.messages.keys()].sort((a, b) => b - a);
  for (const seq of seqs) {
    const message = tree.messages.get(seq) as Message;
    if (writesOutside(message)) marked.add(seq);
    if (marked.has(seq)) marked.add(parentOf(message));
  }
  return marked;
}

/** Whether another version than the one on the path changed something the log does not roll back. */
export function otherVersionsWrote(versions: Versions, writes: ReadonlySet<number>): boolean {
  return versions.seqs.some((seq, i) => i !== versions.index && writes.has(seq));
}

/**
 * Where a turn's versions fork: the first message of the turn of `user` (on `path`, after the user's
 * message and the System messages its references added) that has siblings; null when the turn was
 * never regenerated. `from` is the user message's index on the path.
 */
export function turnFork(tree: BranchTree, path: readonly Message[], from: number): number | null {
  for (let i = from + 1; i < path.length; i++) {
    const message = path[i] as Message;
    if (message.role === "user") return null;
    if (versionsOf(tree, message.seq).seqs.length > 1) return message.seq;
    if (isFinalAnswer(message)) return null; // the turn is over
  }
  return null;
}

/** What an answer's row needs to know of its turn: the question it answers and where its versions fork. */
export type AnswerTurn = { user: number | null; fork: number | null };

/**
 * For each final answer on `path`, its turn's user message and fork (turnFork). A turn the user did not
 * start (a notify, a reminder) has neither. One pass: each turn is read once.
 */
export function answerTurns(tree: BranchTree, path: readonly Message[]): ReadonlyMap<number, AnswerTurn> {
  const turns = new Map<number, AnswerTurn>();
  let current: AnswerTurn = { user: null, fork: null };
  path.forEach((message, i) => {
    if (message.role === "user") current = { user: message.seq, fork: turnFork(tree, path, i) };
    else if (isFinalAnswer(message)) {
      turns.set(message.seq, current);
      current = { user: null, fork: null };
    }
  });
  return turns;
}
