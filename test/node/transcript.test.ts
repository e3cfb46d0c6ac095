// The transcript's grouping (client/src/lib/transcript.ts) and the plain-language termination texts
// (client/src/lib/termination.ts): pure functions, tested without a browser.
import { describe, expect, it } from "vitest";
import { conversationReducer, INITIAL_STATE } from "../../client/src/lib/conversation-state";
import { answerParts, describeFailure, isFailure, terminationText } from "../../client/src/lib/termination";
import { buildTranscript, groupSummary, isRoutineSystem, keepUnchanged } from "../../client/src/lib/transcript";
import { applyAgentUpdate, IDLE_TURN, turnActivity } from "../../client/src/lib/turn-state";
import type { Message } from "../../protocol";
import { TERMINATION_REASONS } from "../../protocol";

let seq = 0;
const at = "2025-01-01T10:00:00.000Z";
const user = (content: string): Message => ({ seq: ++seq, id: `m${seq}`, created_at: at, role: "user", content });
const agent = (content: string, extra: Partial<Extract<Message, { role: "agent" }>> = {}): Message => ({
  seq: ++seq,
  id: `m${seq}`,
  created_at: at,
  role: "agent",
  content,
  ...extra,
});
const tool = (name: string, step: number, status: "success" | "error" | "timeout" = "success"): Message => ({
  seq: ++seq,
  id: `m${seq}`,
  created_at: at,
  role: "tool",
  call_id: `c${seq}`,
  tool: name,
  args: { q: "x" },
  status,
  result: status === "success" ? { ok: true } : undefined,
  error: status === "success" ? undefined : "boom",
  step,
  duration_ms: 12,
});
const system = (
  severity: "debug" | "info" | "warning" | "error" | "critical",
  priority: "low" | "normal" | "high" | "critical" = "low",
  source = "Tool Executor",
): Message => ({
  seq: ++seq,
  id: `m${seq}`,
  created_at: at,
  role: "system",
  source,
  severity,
  item: { kind: "notification", message: "m", body: "b", format: "text", priority },
});
const final = (content: string, step: number, total = 1968): Message =>
  agent(content, {
    phase: "final",
    step,
    termination_reason: "completed",
    usage: { input_tokens: 1200, output_tokens: total - 1200, total_tokens: total },
  });

describe("buildTranscript", () => {
  it("folds a turn's steps into one group before its final answer, keeping warnings in place", () => {
    const messages = [
      user("q"),
      agent("looking", { step: 1 }),
      tool("vault_search", 1),
      tool("vault_read", 1, "error"),
      system("error", "high"), // a tool failure: stays visible
      system("info", "low"), // a tool success summary: routine
      tool("vault_read", 2),
      tool("vault_list", 2),
      final("done", 3),
      system("info", "low", "Turn Control"), // a turn summary after the answer: routine, same group
    ];
    const items = buildTranscript(messages);
    expect(items.map((i) => i.kind)).toEqual(["user", "group", "system", "answer"]);
    const group = items[1];
    if (group?.kind !== "group") throw new Error("no group");
    expect(group.steps.map((m) => m.role)).toEqual(["agent", "tool", "tool", "system", "tool", "tool", "system"]);
    expect(group).toMatchObject({ stepCount: 3, toolCount: 4, failedTools: 1, tokens: 1968, running: false });
    expect(group.final?.content).toBe("done");
    expect(groupSummary(group)).toBe("Worked for 3 steps · 4 tools · 1 failed");
  });

  it("keeps what the agent remembered in its place, out of the folded steps; a failed memory call folds", () => {
    const items = buildTranscript([
      user("my roses are climbers"),
      tool("vault_search", 1),
      tool("memory", 1),
      tool("memory", 2, "error"),
      final("noted", 3),
    ]);
    expect(items.map((i) => i.kind)).toEqual(["user", "group", "memory", "group", "answer"]);
    const [, first, memory, second] = items;
    expect(memory?.kind === "memory" && memory.message.tool).toBe("memory");
    expect(first?.kind === "group" && first.steps.map((m) => m.role === "tool" && m.tool)).toEqual(["vault_search"]);
    expect(second?.kind === "group" && second.failedTools).toBe(1);
  });

  it("shows a simple answer without a group, and marks only the last unfinished turn as running", () => {
    const done = buildTranscript([user("a"), final("b", 1)]);
    expect(done.map((i) => i.kind)).toEqual(["user", "answer"]);
    const running = buildTranscript([user("a"), final("b", 1), user("c"), tool("vault_list", 1)], { running: true });
    expect(running.map((i) => i.kind)).toEqual(["user", "answer", "user", "group"]);
    expect(running[3]).toMatchObject({ kind: "group", running: true, final: null });
    expect(groupSummary(running[3] as Parameters<typeof groupSummary>[0])).toBe("Working for 1 step · 1 tool");
    const notRunning = buildTranscript([user("c"), tool("vault_list", 1)], { running: false });
    expect(notRunning[1]).toMatchObject({ kind: "group", running: false });
  });

  it("keeps external triggers, warnings and the conversation's own items visible", () => {
    expect(isRoutineSystem(system("info", "normal", "External") as never)).toBe(false);
    expect(isRoutineSystem(system("warning", "low") as never)).toBe(false);
    expect(isRoutineSystem(system("info", "high", "Loop Detector") as never)).toBe(false);
    expect(isRoutineSystem(system("info", "low") as never)).toBe(true);
    expect(isRoutineSystem(system("debug", "normal", "Turn Control") as never)).toBe(true);
    const attachment: Message = {
      seq: ++seq,
      id: "f",
      created_at: at,
      role: "system",
      source: "Files",
      severity: "info",
      item: { kind: "file_attachment", path: "plan.md", body: "x" },
    };
    expect(isRoutineSystem(attachment as never)).toBe(false);
  });
});

// Issue 39: a rebuild after a new message keeps the items of the turns it did not touch (their rows are
// memoised on them), and streamed deltas never rebuild the transcript at all.
describe("keepUnchanged", () => {
  it("keeps the objects of untouched turns", () => {
    const log = [user("q1"), agent("step", { step: 1 }), tool("vault_list", 1), agent("a1", { phase: "final" })];
    log.push(user("q2"), tool("vault_read", 1));
    const first = buildTranscript(log, { running: true });
    const again = keepUnchanged(first, buildTranscript([...log], { running: true }));
    for (const [i, item] of again.entries()) expect(item).toBe(first[i]);

    const grown = [...log, tool("vault_search", 2), agent("a2", { phase: "final" })];
    const next = keepUnchanged(first, buildTranscript(grown, { running: false }));
    // The first turn (question, group, answer) and the second question are the same objects…
    for (let i = 0; i < 4; i++) expect(next[i]).toBe(first[i]);
    // …the second turn's group grew and is new, and its answer is there.
    expect(next[4]).not.toBe(first[4]);
    expect(next[4]).toMatchObject({ kind: "group", toolCount: 2, running: false });
    expect(next[5]).toMatchObject({ kind: "answer" });
  });

  it("leaves the persisted messages alone while text streams: deltas change only the live text", () => {
    const hello = { type: "hello", last_seq: 0, running: false } as const;
    let state = conversationReducer(INITIAL_STATE, { type: "frame", frame: hello as never });
    state = conversationReducer(state, { type: "frame", frame: { type: "message", message: user("q") } as never });
    const messages = state.messages;
    const deltas = ["Hel", "lo", " there"].map((delta) => ({ type: "text_delta", step: 1, delta }) as never);
    const streamed = deltas.reduce((s, frame) => conversationReducer(s, { type: "frame", frame }), state);
    expect(streamed.messages).toBe(messages);
    expect(streamed.liveText.get(1)).toBe("Hello there");
  });
});

describe("termination texts", () => {
  it("has plain language for every reason, never the raw code", () => {
    for (const reason of TERMINATION_REASONS) {
      const text = terminationText(reason, 1);
      expect(text).not.toContain("_");
      expect(text).not.toMatch(/after 1 steps/);
    }
    expect(terminationText("user_cancelled")).toBe("You stopped this answer");
    expect(terminationText("max_iterations", 4)).toBe("Stopped at the step limit (4 steps)");
  });

  it("says how a turn ended once: the saved explanation leaves the text and becomes the note", () => {
    // What the agent saves (agent/explanations.ts composeFinal) and replays to the model stays as is;
    // the bubble shows the text without the explanation, and the note says it in one place.
    expect(answerParts("Chapter 1. The end", "user_cancelled")).toEqual({
      body: "Chapter 1. The end",
      note: "You stopped this answer",
    });
    expect(answerParts("Chapter 1\n\n— Stopped by the user.", "user_cancelled")).toEqual({
      body: "Chapter 1",
      note: "You stopped this answer",
    });
    expect(
      answerParts(
        "Half\n\n— Stopped by the user. A subagent was stopped before finishing; its unfinished work was discarded.",
        "user_cancelled",
      ).note,
    ).toBe("You stopped this answer. A subagent was stopped before finishing; its unfinished work was discarded.");
    const limit = answerParts("Partial\n\n— Stopped at the iteration limit (15/15). Raise it.", "max_iterations");
    expect(limit).toEqual({ body: "Partial", note: "Stopped at the iteration limit (15/15). Raise it." });
    expect(answerParts("Stopped by the user.", "user_cancelled")).toEqual({
      body: "",
      note: "You stopped this answer",
    });
    // A completed answer keeps everything, an output-limit remark included.
    const done = "All of it\n\n— The answer hit the model's output limit and may be incomplete.";
    expect(answerParts(done, "completed")).toEqual({ body: done, note: null });
  });

  it("describes a model failure from the saved answer", () => {
    expect(isFailure("llm_error")).toBe(true);
    expect(isFailure("user_cancelled")).toBe(false);
    const auth = describeFailure("llm_error", "The model call failed: Incorrect API key provided.");
    expect(auth.title).toBe("The model could not be reached (401 Unauthorized).");
    expect(auth.hint).toMatch(/API key/);
    expect(auth.detail).toBe("Incorrect API key provided");
    const server = describeFailure(
      "llm_error",
      "Half an answer\n\n— The model call failed: Internal Server Error (after 3 retries).",
    );
    expect(server.title).toBe("The model service failed.");
    expect(server.partial).toBe("Half an answer");
  });
});

describe("turnActivity", () => {
  const started = applyAgentUpdate(IDLE_TURN, { update_type: "agent_start", max_steps: 10, decision_tree: "default" });
  const stepping = applyAgentUpdate(started, { update_type: "agent_turn_start", step: 1 });
  const idle = { writing: false, runningTools: [] as string[] };

  it("says what the turn does, and never 'reasoning' in the default tree", () => {
    expect(turnActivity(IDLE_TURN, idle)).toBeNull();
    expect(turnActivity(started, idle)?.label).toBe("Starting…");
    expect(turnActivity(stepping, idle)?.label).toBe("Thinking…");
    expect(turnActivity(stepping, { writing: true, runningTools: [] })?.label).toBe("Writing…");
    expect(turnActivity(stepping, { writing: true, runningTools: ["vault_search"] })?.label).toBe(
      "Searching your notes…",
    );
    // In words, never a tool's internal name; an MCP tool by its own name and its server's.
    expect(turnActivity(stepping, { writing: false, runningTools: ["vault_read", "vault_read"] })?.label).toBe(
      "Reading a note…",
    );
    expect(turnActivity(stepping, { writing: false, runningTools: ["task_create", "local__echo"] })?.label).toBe(
      "Adding a task · Using Echo on local…",
    );
    const asking = applyAgentUpdate(stepping, {
      update_type: "agent_request_input",
      question: "?",
      step: 1,
      timeout_s: 60,
    });
    expect(turnActivity(asking, idle)?.label).toBe("Waiting for your answer");
    expect(asking.pendingInput?.deadline).toBeDefined();
    const stopping = applyAgentUpdate(stepping, { update_type: "agent_stopped", step: 1 });
    expect(turnActivity(stopping, idle)?.label).toBe("Stopping…");
  });

  it("says a turn cut short by a restart is resuming until it shows something new", () => {
    const resumed = applyAgentUpdate(started, { update_type: "agent_resumed", step: 2, interruptions: 1 });
    expect(turnActivity(resumed, idle)?.label).toBe("Resuming after a restart…");
    // The step it goes on with starts: still resuming until the model writes or a tool runs.
    const next = applyAgentUpdate(resumed, { update_type: "agent_turn_start", step: 3 });
    expect(turnActivity(next, idle)?.label).toBe("Resuming after a restart…");
    expect(turnActivity(next, { writing: true, runningTools: [] })?.label).toBe("Writing…");
    expect(turnActivity(next, { writing: false, runningTools: ["vault_list"] })?.label).toBe(
      "Looking through your notes…",
    );
    const reduced = conversationReducer(
      conversationReducer(INITIAL_STATE, {
        type: "frame",
        frame: { type: "hello", conversation_id: "c", last_seq: 4, running: true, resuming: true },
      }),
      { type: "frame", frame: { type: "text_delta", step: 3, delta: "Back" } },
    );
    expect(reduced.turn.resuming).toBe(false);
    expect(
      conversationReducer(INITIAL_STATE, {
        type: "frame",
        frame: { type: "hello", conversation_id: "c", last_seq: 4, running: true, resuming: true },
      }).turn.resuming,
    ).toBe(true);
  });

  it("says 'reasoning' only in the reason phase of the roa tree", () => {
    const roa = applyAgentUpdate(
      applyAgentUpdate(IDLE_TURN, { update_type: "agent_start", max_steps: 10, decision_tree: "roa" }),
      { update_type: "agent_turn_start", step: 1 },
    );
    expect(turnActivity(roa, idle)?.label).toBe("Reasoning…");
  });
});
