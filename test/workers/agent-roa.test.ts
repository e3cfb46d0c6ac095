// The strict reason → act → observe tree (seed 003), end to end.
import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, requestText, scenario, updates } from "./turn-helpers";

describe("roa decision tree", () => {
  it("runs reason without tools, act with tools, observe without tools, and finishes on the observe block", async () => {
    const s = await scenario([
      {
        text: 'I should list the notes first.\n```json\n{"plan": "list notes", "tools_to_consider": ["vault_list"], "finish": false}\n```',
      },
      { tool_calls: [{ name: "vault_list", arguments: {} }] },
      {
        text: "There are no notes yet.\n{'observation': 'empty vault', 'should_continue': False, 'final_answer': 'Your vault is empty.',}",
      },
    ]);
    const { done, frames } = await chat(s, "what notes do I have?", { decision_tree: "roa" });
    expect(done).toMatchObject({ termination_reason: "completed", steps: 1 });
    expect(updates(frames)).toEqual([
      "agent_start",
      "agent_turn_start",
      "agent_reason",
      "agent_observe",
      "agent_completion",
    ]);
    expect(frames.find((f) => f.type === "agent_update" && f.update_type === "agent_start")).toMatchObject({
      decision_tree: "roa",
    });
    expect(frames.find((f) => f.type === "agent_update" && f.update_type === "agent_reason")).toMatchObject({
      content: "I should list the notes first.",
    });

    const requests = await modelRequests(llmUrl, s.key);
    expect(requests.map((r) => r.body.tools !== undefined)).toEqual([false, true, false]);
    expect(requestText(requests[0]?.body ?? {})).toContain("REASON PHASE");
    expect(requestText(requests[2]?.body ?? {})).toContain("OBSERVE PHASE");

    const messages = await history(s);
    const shown = messages.filter((m) => m.role !== "system");
    expect(shown.map((m) => (m.role === "agent" ? `agent:${m.phase}` : m.role))).toEqual([
      "user",
      "agent:reason",
      "tool",
      "agent:observe",
      "agent:final",
    ]);
    expect(finalMessage(messages)).toMatchObject({ content: "Your vault is empty.", termination_reason: "completed" });
  });

  it("keeps stepping while observe asks to continue, within max steps", async () => {
    const s = await scenario([
      { text: 'plan\n{"finish": false}' },
      { tool_calls: [{ name: "vault_list", arguments: {} }] },
      { text: 'need more\n{"should_continue": true}' },
    ]);
    const { done } = await chat(s, "dig", { decision_tree: "roa", agent_max_steps: 2 });
    expect(done).toMatchObject({ termination_reason: "max_iterations", steps: 2 });
  });

  it("treats a missing control block as free text and goes on", async () => {
    const s = await scenario([
      { text: "no json here" },
      { text: "I can answer directly." },
      { text: 'done\n```json\n{"should_continue": false, "final_answer": "42"}\n```' },
    ]);
    const { done } = await chat(s, "answer", { decision_tree: "roa" });
    expect(done.termination_reason).toBe("completed");
    expect(finalMessage(await history(s)).content).toBe("42");
  });

  it("refuses an unknown decision tree with an error frame", async () => {
    const s = await scenario([]);
    s.socket.send({ type: "chat", content: "hi", decision_tree: "nope" });
    const error = await s.socket.next("error");
    expect(error).toMatchObject({ code: "invalid_frame" });
    expect(error.message).toContain("nope");
    expect(await history(s)).toEqual([]);
  });
});
