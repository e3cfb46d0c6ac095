// Stop (seed 003 agent controls; docs/protocol.md agent_control): the in-flight model request is aborted,
// the partial answer is saved, the turn ends with agent_stopped then response_complete, and the
// next message starts a fresh turn.
import { describe, expect, it } from "vitest";
import { marker, scriptModel, waitForModelRequests } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, scenario, updates } from "./turn-helpers";

describe("stop", () => {
  it("aborts the model request mid-stream and saves the partial answer", async () => {
    const s = await scenario([{ text: ["Partial ", "thoughts ", "so far"], hang: true }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `think hard ${marker(s.key)}` });
    await s.socket.next("text_delta", (f) => f.delta.includes("so far"), { from });
    s.socket.send({ type: "agent_control", action: "stop" });
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("user_cancelled");
    const frames = s.socket.frames.slice(from);
    expect(updates(frames).slice(-2)).toEqual(["agent_stopped", "agent_completion"]);
    expect(frames.at(-1)?.type).toBe("response_complete");
    const [request] = await waitForModelRequests(llmUrl, s.key, (r) => r[0]?.aborted === true);
    expect(request?.completed).toBe(false);
    const final = finalMessage(await history(s));
    expect(final).toMatchObject({ termination_reason: "user_cancelled" });
    expect(final.content).toContain("Partial thoughts so far");
    expect(final.content).toContain("Stopped by the user.");
    // The aborted call reported no usage, yet it read the request and wrote the partial answer: its
    // estimate is counted, in the final answer's usage and response_complete alike (issue 13).
    expect(final.role === "agent" && final.usage?.input_tokens).toBeGreaterThan(0);
    expect(final.role === "agent" && final.usage?.output_tokens).toBeGreaterThanOrEqual(4); // "Partial thoughts so far"
    expect(done.usage).toEqual(final.role === "agent" ? final.usage : undefined);

    await scriptModel(llmUrl, s.key, [{ text: "Fresh start." }]);
    const next = await chat(s, "again");
    expect(next.done.termination_reason).toBe("completed");
    expect(finalMessage(await history(s)).content).toBe("Fresh start.");
  });

  it("stops while the agent waits for the user's answer", async () => {
    const s = await scenario([{ tool_calls: [{ name: "request_input", arguments: { question: "Which one?" } }] }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `pick ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    s.socket.send({ type: "agent_control", action: "stop" });
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("user_cancelled");
    const messages = await history(s);
    expect(messages.find((m) => m.role === "tool")).toMatchObject({ tool: "request_input", status: "error" });
  });

  it("answers stop with an error when no turn runs", async () => {
    const s = await scenario([]);
    s.socket.send({ type: "agent_control", action: "stop" });
    expect((await s.socket.next("error")).code).toBe("not_running");
  });
});
