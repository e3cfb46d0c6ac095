// Conversations as trees on the client (client/src/lib/branches.ts, conversation-state.ts): the path
// the chat shows, versions of a message and of a turn, where the leaf goes as frames arrive, and the
// notes line's "another version wrote outside the log". Pure, tested without a browser.
import { describe, expect, it } from "vitest";
import {
  answerTurns,
  buildTree,
  newestLeaf,
  pathTo,
  subtreesWithWrites,
  versionsOf,
} from "../../client/src/lib/branches";
import {
  type ConversationState,
  conversationReducer,
  INITIAL_STATE,
  pathMessages,
} from "../../client/src/lib/conversation-state";
import type { Message, ServerFrame } from "../../protocol";

const at = "2025-01-01T10:00:00.000Z";
const base = (seq: number, parent_seq?: number) => ({ seq, id: `m${seq}`, created_at: at, parent_seq });
const user = (seq: number, parent: number | undefined, content = `q${seq}`): Message => ({
  ...base(seq, parent),
  role: "user",
  content,
});
const answer = (seq: number, parent: number | undefined, content = `a${seq}`): Message => ({
  ...base(seq, parent),
  role: "agent",
  content,
  phase: "final",
  termination_reason: "completed",
});
const step = (seq: number, parent: number): Message => ({
  ...base(seq, parent),
  role: "agent",
  content: "step",
  step: 1,
});
const tool = (seq: number, parent: number, name: string, status: "success" | "error" = "success"): Message => ({
  ...base(seq, parent),
  role: "tool",
  call_id: `c${seq}`,
  tool: name,
  args: {},
  status,
  step: 1,
  duration_ms: 1,
});
const byseq = (list: Message[]) => new Map(list.map((m) => [m.seq, m]));
const seqs = (list: Message[]) => list.map((m) => m.seq);

// Three turns (1–6), then the first question edited (7, 8), then the second answer regenerated on the
// original branch (9 follows 3):
//   0 ─ 1 ─ 2 ─ 3 ─ 4 ─ 5 ─ 6
//   │           └ 9
//   └ 7 ─ 8
const tree3 = [
  user(1, 0),
  answer(2, 1),
  user(3, 2),
  answer(4, 3),
  user(5, 4),
  answer(6, 5),
  user(7, 0, "edited"),
  answer(8, 7),
  answer(9, 3),
];

describe("the tree", () => {
  const tree = buildTree(byseq(tree3));

  it("reads the path that ends at a leaf, and only that path", () => {
    expect(seqs(pathTo(tree.messages, 6))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(pathTo(tree.messages, 8))).toEqual([7, 8]);
    expect(seqs(pathTo(tree.messages, 9))).toEqual([1, 2, 3, 9]);
  });

  it("reads messages without parent_seq (a server older than branches) as one line", () => {
    const old = byseq([user(1, undefined), answer(2, undefined), user(3, undefined)]);
    expect(seqs(pathTo(old, 3))).toEqual([1, 2, 3]);
  });

  it("finds a message's versions, oldest first, and which one it is", () => {
    expect(versionsOf(tree, 7)).toEqual({ seqs: [1, 7], index: 1 });
    expect(versionsOf(tree, 1)).toEqual({ seqs: [1, 7], index: 0 });
    expect(versionsOf(tree, 9)).toEqual({ seqs: [4, 9], index: 1 });
    expect(versionsOf(tree, 5)).toEqual({ seqs: [5], index: 0 });
  });

  it("never counts a question and a turn's first message as versions of each other", () => {
    // Question 1's turn wrote nothing (it failed outside the loop) and the user asked 3; then 1's turn
    // was regenerated (4, 5 follow 1 too), and a System message (6) came while 1 was the leaf.
    const mixed = buildTree(
      byseq([
        user(1, 0),
        user(3, 1),
        step(4, 1),
        answer(5, 4),
        {
          ...step(6, 1),
          role: "system",
          source: "External",
          severity: "info",
          item: { kind: "interrupt", body: "x" },
        } as Message,
      ]),
    );
    expect(versionsOf(mixed, 3)).toEqual({ seqs: [3], index: 0 });
    expect(versionsOf(mixed, 4)).toEqual({ seqs: [4, 6], index: 0 });
  });

  it("goes on to the newest message below a version", () => {
    expect(newestLeaf(tree, 1)).toBe(9);
    expect(newestLeaf(tree, 4)).toBe(6);
    expect(newestLeaf(tree, 7)).toBe(8);
    expect(newestLeaf(tree, 6)).toBe(6);
  });

  it("gives each answer its question and, for a regenerated turn, where its versions fork", () => {
    const turns = answerTurns(tree, pathTo(tree.messages, 6));
    expect(turns.get(2)).toEqual({ user: 1, fork: null });
    expect(turns.get(4)).toEqual({ user: 3, fork: 4 });
    expect(turns.get(6)).toEqual({ user: 5, fork: null });
    // The fork is found past the turn's steps, at the first message that has versions.
    const long = buildTree(byseq([user(1, 0), step(2, 1), tool(3, 2, "vault_read"), answer(4, 3), answer(5, 1)]));
    expect(answerTurns(long, pathTo(long.messages, 4)).get(4)).toEqual({ user: 1, fork: 2 });
  });

  it("marks the versions under which a tool changed notes, tasks or an MCP server's world", () => {
    const writes = (list: Message[]) => subtreesWithWrites(buildTree(byseq(list)));
    const turn = [user(1, 0), answer(2, 1), user(3, 2), step(4, 3)];
    expect(writes([...turn, tool(5, 4, "vault_write"), answer(6, 5), answer(7, 3)]).has(4)).toBe(true);
    expect(writes([...turn, tool(5, 4, "github__create_issue"), answer(6, 5)]).has(4)).toBe(true);
    expect(writes([...turn, tool(5, 4, "task_update")]).has(1)).toBe(true);
    // Reading, or a write that failed, changed nothing.
    expect(writes([...turn, tool(5, 4, "vault_read"), tool(6, 5, "task_create", "error")]).size).toBe(0);
  });

  // Linear, not quadratic, counted rather than timed: every walk reads the messages through the map it
  // is given, so the lookups of a 4× longer conversation must grow 4×, not 16× as a walk to the root
  // from every message would (a timed limit failed on a loaded machine and passed a slow algorithm).
  it("stays linear in time on a long conversation", () => {
    class CountingMap extends Map<number, Message> {
      reads = 0;
      override get(seq: number) {
        this.reads++;
        return super.get(seq);
      }
      override has(seq: number) {
        this.reads++;
        return super.has(seq);
      }
    }
    const lookups = (turns: number) => {
      const messages = new CountingMap();
      for (let seq = 1; seq <= turns * 2; seq += 2) {
        messages.set(seq, user(seq, seq - 1));
        messages.set(seq + 1, answer(seq + 1, seq));
      }
      const tree = buildTree(messages);
      const path = pathTo(tree.messages, turns * 2);
      answerTurns(tree, path);
      subtreesWithWrites(tree);
      expect(path.length).toBe(turns * 2);
      return messages.reads;
    };
    const small = lookups(2_500);
    const large = lookups(10_000);
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeLessThan(4.5);
  });
});

describe("the leaf as frames arrive", () => {
  const frame = (state: ConversationState, f: ServerFrame) => conversationReducer(state, { type: "frame", frame: f });
  const hello = (last_seq: number, leaf_seq?: number): ServerFrame => ({
    type: "hello",
    conversation_id: "c",
    last_seq,
    running: false,
    leaf_seq,
  });
  const load = (state: ConversationState, list: Message[]) =>
    list.reduce((s, message) => frame(s, { type: "message", message }), state);

  it("shows the hello's leaf after a resume of every branch", () => {
    const state = load(frame(INITIAL_STATE, hello(9, 8)), tree3);
    expect(seqs(pathMessages(state))).toEqual([7, 8]);
  });

  it("moves the leaf on to each live message that follows it", () => {
    let state = load(frame(INITIAL_STATE, hello(9, 8)), tree3);
    state = load(state, [user(10, 8), answer(11, 10)]);
    expect(seqs(pathMessages(state))).toEqual([7, 8, 10, 11]);
  });

  it("follows branch_switched, and the new branch's messages after it", () => {
    let state = load(frame(INITIAL_STATE, hello(9, 8)), tree3);
    state = frame(state, { type: "branch_switched", leaf_seq: 6 });
    expect(seqs(pathMessages(state))).toEqual([1, 2, 3, 4, 5, 6]);
    // A regenerate of the second answer: the path goes back to its question, then the new answer.
    state = frame(state, { type: "branch_switched", leaf_seq: 3 });
    state = load(state, [answer(10, 3)]);
    expect(seqs(pathMessages(state))).toEqual([1, 2, 3, 10]);
  });

  it("does not move the leaf for history that follows it on another branch (a regenerate still thinking)", () => {
    // The leaf is the question being answered again; its old answer (4) is history, not the new one.
    const state = load(frame(INITIAL_STATE, hello(9, 3)), tree3);
    expect(seqs(pathMessages(state))).toEqual([1, 2, 3]);
  });

  it("reads a server older than branches as one line", () => {
    const old = [user(1, undefined), answer(2, undefined)];
    let state = load(frame(INITIAL_STATE, hello(2)), old);
    state = load(state, [user(3, undefined)]);
    expect(seqs(pathMessages(state))).toEqual([1, 2, 3]);
  });
});
