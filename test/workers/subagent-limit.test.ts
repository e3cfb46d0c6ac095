// Seed 001 FR-006 / issue 6: a parent that hits a limit while a subagent works stops the subagent
// (its model request is aborted), keeps none of its unfinished work, and says so. Its own file: the
// timeout cannot be shorter than 10 s.
import { describe, expect, it } from "vitest";
import { marker, scriptModel, waitForModelRequests } from "../support/fake-openai-client";
import { uniqueName } from "./helpers";
import { chat, finalMessage, history, llmUrl, scenario } from "./turn-helpers";

describe("a parent limit during a subagent", () => {
  it("ends the parent on its timeout, stops the child and discards the child's unfinished work", async () => {
    const child = uniqueName("child");
    await scriptModel(llmUrl, child, [{ text: ["Half of a long answer"], hang: true }]);
    const s = await scenario(
      [{ tool_calls: [{ name: "delegate", arguments: { task: `Take long ${marker(child)}` } }] }],
      {
        timeoutSeconds: 10,
      },
    );
    const { done } = await chat(s, "delegate and wait");
    expect(done.termination_reason).toBe("timeout");
    await waitForModelRequests(llmUrl, child, (r) => r[0]?.aborted === true);
    const messages = await history(s);
    const tool = messages.find((m) => m.role === "tool" && m.tool === "delegate");
    expect(tool).toMatchObject({ status: "error", error: "Cancelled: the turn reached its time limit" });
    const final = finalMessage(messages);
    expect(final.content).toContain("time limit of 10 s");
    expect(final.content).toContain("unfinished work was discarded");
    expect(final.content).not.toContain("Half of a long answer");
  }, 30_000);
});
