import { describe, expect, it } from "vitest";
import type { PhasePlan } from "../../../agent/decision-trees/decision-tree";
import { roaTree } from "../../../agent/decision-trees/roa-tree";
import { state } from "./fixtures";

const plan = (phase: PhasePlan["phase"]): PhasePlan => ({ phase, tools: phase === "act" });
const result = (phase: PhasePlan["phase"], text: string, toolCallCount = 0) => ({
  plan: plan(phase),
  text,
  toolCallCount,
});

describe("roaTree", () => {
  it("plans reason (no tools) → act (tools) → observe (no tools) every step, each with its instruction", () => {
    const phases = roaTree.phases(state({ step: 2 }, { maxIterations: 9 }), ["vault_search", "vault_read"]);
    expect(phases.map((p) => [p.phase, p.tools])).toEqual([
      ["reason", false],
      ["act", true],
      ["observe", false],
    ]);
    const [reason, act, observe] = phases;
    expect(reason?.instruction).toContain("step 2 of at most 9");
    expect(reason?.instruction).toContain("vault_search, vault_read");
    expect(act?.instruction?.trim()).toBeTruthy();
    expect(observe?.instruction?.trim()).toBeTruthy();
    expect(new Set(phases.map((p) => p.instruction)).size).toBe(3);
  });

  it("keeps the act reply as it is", () => {
    const s = state();
    expect(roaTree.onPhaseResult(s, result("act", 'Calling.\n{"finish": true}', 1))).toEqual({
      state: s,
      display: 'Calling.\n{"finish": true}',
    });
  });

  it("shows the reasoning without its control block and goes on when finish is false", () => {
    const s = state();
    const verdict = roaTree.onPhaseResult(
      s,
      result("reason", 'I will search.\n```json\n{"plan": "search", "finish": false}\n```'),
    );
    expect(verdict).toEqual({ state: s, display: "I will search.", phase: "reason" });
  });

  it("finishes from the reason phase with final_answer, or the prose when it is empty", () => {
    const withAnswer = roaTree.onPhaseResult(
      state(),
      result("reason", 'Easy.\n{"finish": true, "final_answer": " 42 "}'),
    );
    expect(withAnswer.answer).toBe("42");
    expect(withAnswer.state.finished).toBe(true);
    expect(roaTree.shouldContinue(withAnswer.state)).toEqual({ continue: false, reason: "completed" });
    const fromProse = roaTree.onPhaseResult(
      state(),
      result("reason", 'It is 42.\n{"finish": true, "final_answer": ""}'),
    );
    expect(fromProse.answer).toBe("It is 42.");
  });

  it("does not finish on a control block that breaks the schema", () => {
    const verdict = roaTree.onPhaseResult(state(), result("reason", 'x\n{"finish": "yes", "final_answer": "42"}'));
    expect(verdict.answer).toBeUndefined();
    expect(verdict.state.finished).toBe(false);
  });

  it("goes on after an observation unless should_continue is false", () => {
    const on = roaTree.onPhaseResult(
      state(),
      result("observe", 'Found it.\n{"observation": "x", "should_continue": true}'),
    );
    expect(on).toMatchObject({ display: "Found it.", phase: "observe" });
    expect(on.state.finished).toBe(false);
    const free = roaTree.onPhaseResult(state(), result("observe", "No block here."));
    expect(free.state.finished).toBe(false);
    expect(free.answer).toBeUndefined();
  });

  it("finishes after an observation with should_continue false, preferring final_answer", () => {
    const done = roaTree.onPhaseResult(
      state(),
      result("observe", 'Summary.\n{"should_continue": false, "final_answer": "The note says 42."}'),
    );
    expect(done).toMatchObject({ display: "Summary.", phase: "observe", answer: "The note says 42." });
    expect(done.state.finished).toBe(true);
    const prose = roaTree.onPhaseResult(state(), result("observe", 'Summary.\n{"should_continue": false}'));
    expect(prose.answer).toBe("Summary.");
  });
});
