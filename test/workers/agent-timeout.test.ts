// The timeout limit aborts a model call that runs past it (its own file: it takes the 10 s minimum).
import { describe, expect, it } from "vitest";
import { waitForModelRequests } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, scenario } from "./turn-helpers";

describe("timeout", () => {
  it("ends the turn at timeoutSeconds, aborting the in-flight model request", async () => {
    const s = await scenario([{ text: ["Working on it"], hang: true }], { timeoutSeconds: 10 });
    const started = Date.now();
    const { done } = await chat(s, "take forever");
    expect(done.termination_reason).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    await waitForModelRequests(llmUrl, s.key, (r) => r[0]?.aborted === true);
    const final = finalMessage(await history(s));
    expect(final.content).toContain("Working on it");
    expect(final.content).toContain("time limit of 10 s");
  }, 30_000);
});
