// Soft warnings reach the model and the user before the hard limit (seed 001 US2, SC-003; seed 000 US3).
import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/fake-openai-client";
import { chat, history, llmUrl, requestText, scenario } from "./turn-helpers";

const list = (prefix: string) => ({ tool_calls: [{ name: "vault_list", arguments: { prefix } }] });

describe("budget warnings", () => {
  it("warns at 70% of 10 iterations (step 7), before step 7's request, as a System message", async () => {
    const steps = Array.from({ length: 10 }, (_, i) => list(`p${i}`));
    const s = await scenario(steps, { maxIterations: 10 });
    const { done } = await chat(s, "work long");
    expect(done.termination_reason).toBe("max_iterations");
    const messages = await history(s);
    const warnings = messages.filter((m) => m.role === "system" && m.item.body.includes("Approaching iteration limit"));
    expect(warnings).toHaveLength(1);
    const warning = warnings[0];
    expect(warning).toMatchObject({ source: "Budget Monitor", severity: "warning" });
    expect(warning?.role === "system" && warning.item.body).toContain("Approaching iteration limit (7/10)");
    expect(warning?.role === "system" && warning.item.body).toMatch(/Consider wrapping up/);
    // Step 7 is the 7th request: it is the first to carry the warning, 3 steps before the limit.
    const requests = await modelRequests(llmUrl, s.key);
    expect(requests.map((r) => requestText(r.body).includes("Approaching iteration limit"))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it("warns at least two iterations before a small limit", async () => {
    const s = await scenario([list("a"), list("b"), list("c"), list("d")], { maxIterations: 4 });
    await chat(s, "work");
    const requests = await modelRequests(llmUrl, s.key);
    const firstWarned = requests.findIndex((r) => requestText(r.body).includes("Approaching iteration limit"));
    expect(firstWarned + 1).toBeLessThanOrEqual(4 - 2);
  });

  it("warns before the step that would pass 80% of the token budget, with what is left (SC-006)", async () => {
    const usage = { prompt_tokens: 8000, completion_tokens: 1000 };
    const s = await scenario(
      [
        { ...list("a"), usage },
        { ...list("b"), usage },
        { text: "finished", usage },
      ],
      {
        tokenBudget: 20000,
      },
    );
    const { done } = await chat(s, "spend");
    expect(done.termination_reason).toBe("completed");
    const requests = await modelRequests(llmUrl, s.key);
    // The first step took 9,000 tokens: another like it passes 16,000 (80%), so the second request
    // already carries the warning, with 55% left rather than the 10% a warning after it would leave.
    expect(requestText(requests[0]?.body ?? {})).not.toContain("Token budget at");
    expect(requestText(requests[1]?.body ?? {})).toContain(
      "Token budget at 45% (9,000/20,000 tokens, 11,000 left; a step like the last one would take it to 90%)",
    );
  });
});
