import { describe, expect, it } from "vitest";
import { baseTree } from "../../../agent/decision-trees/base-tree";
import { defaultTree } from "../../../agent/decision-trees/default-tree";
import { canonicalJson } from "../../../agent/state";
import { config, state } from "./fixtures";

describe("baseTree", () => {
  it("returns the base config unchanged", () => {
    const cfg = config({ maxIterations: 7 });
    expect(baseTree.getConfig(cfg)).toBe(cfg);
  });

  it("counts a step at each turn start without mutating the state", () => {
    const s = state({ step: 2 });
    expect(baseTree.onTurnStart(s).step).toBe(3);
    expect(s.step).toBe(2);
  });

  it("continues until a stop condition holds, and then names it", () => {
    expect(baseTree.shouldContinue(state())).toEqual({ continue: true });
    expect(baseTree.shouldContinue(state({ step: 4 }, { maxIterations: 4 }))).toEqual({
      continue: false,
      reason: "max_iterations",
    });
  });

  it("records tool results with canonical arguments for loop detection and the error limit", () => {
    let s = state();
    s = baseTree.onToolResult(s, { tool: "t", args: { b: 1, a: 2 }, ok: false, error: "e" });
    s = baseTree.onToolResult(s, { tool: "t", args: { a: 2, b: 1 }, ok: false, error: "e" });
    expect(s.actions).toEqual([
      { tool: "t", argsKey: canonicalJson({ a: 2, b: 1 }), ok: false, error: "e" },
      { tool: "t", argsKey: canonicalJson({ a: 2, b: 1 }), ok: false, error: "e" },
    ]);
    expect(s.consecutiveErrors).toBe(2);
    s = baseTree.onToolResult(s, { tool: "t", args: { a: 2, b: 1 }, ok: false, error: "e" });
    expect(baseTree.shouldContinue(s)).toEqual({ continue: false, reason: "no_progress" });
  });
});

describe("defaultTree", () => {
  it("runs one act phase with tools per step", () => {
    expect(defaultTree.name).toBe("default");
    expect(defaultTree.phases(state(), ["vault_search"])).toEqual([{ phase: "act", tools: true }]);
  });

  it("keeps going while the model calls tools", () => {
    const s = state({ step: 1 });
    const verdict = defaultTree.onPhaseResult(s, {
      plan: { phase: "act", tools: true },
      text: "Let me look.",
      toolCallCount: 2,
    });
    expect(verdict).toEqual({ state: s, display: "Let me look." });
    expect(defaultTree.shouldContinue(verdict.state)).toEqual({ continue: true });
  });

  it("takes a reply without tool calls as the answer and then stops as completed (US3 #1)", () => {
    const s = state({ step: 1 });
    const verdict = defaultTree.onPhaseResult(s, {
      plan: { phase: "act", tools: true },
      text: "42.",
      toolCallCount: 0,
    });
    expect(verdict.answer).toBe("42.");
    expect(verdict.display).toBe("42.");
    expect(s.finished).toBe(false);
    expect(defaultTree.shouldContinue(verdict.state)).toEqual({ continue: false, reason: "completed" });
  });

  it("lets a cancellation win over a completed answer", () => {
    const verdict = defaultTree.onPhaseResult(state({ cancelled: true }), {
      plan: { phase: "act", tools: true },
      text: "42.",
      toolCallCount: 0,
    });
    expect(defaultTree.shouldContinue(verdict.state)).toEqual({ continue: false, reason: "user_cancelled" });
  });
});
