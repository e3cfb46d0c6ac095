import { describe, expect, it } from "vitest";
import { describeWarning, dueWarnings, iterationWarningStep } from "../../../agent/budget-warnings";
import { config, state, T0 } from "./fixtures";

describe("iterationWarningStep", () => {
  it("warns at step 7 of 10 at 70% (seed 001, US2)", () => {
    expect(iterationWarningStep(config({ maxIterations: 10, softWarningPercent: 70 }))).toBe(7);
  });

  it("SC-003: warns at least 2 iterations before the hard limit for every limit from 3 to 50", () => {
    const late: string[] = [];
    for (let max = 3; max <= 50; max++) {
      for (let pct = 10; pct <= 99; pct++) {
        const step = iterationWarningStep(config({ maxIterations: max, softWarningPercent: pct }));
        if (step === undefined || step < 1 || step > max - 2) late.push(`${max}@${pct}% → ${step}`);
      }
    }
    expect(late).toEqual([]);
  });

  it("SC-006: leaves at least 20 % of the iterations, whatever the percentage", () => {
    const late: string[] = [];
    for (let max = 2; max <= 50; max++) {
      for (let pct = 10; pct <= 99; pct++) {
        const step = iterationWarningStep(config({ maxIterations: max, softWarningPercent: pct })) ?? 0;
        if (step > max * 0.8) late.push(`${max}@${pct}% → ${step}`);
      }
    }
    expect(late).toEqual([]);
    expect(iterationWarningStep(config({ maxIterations: 50, softWarningPercent: 99 }))).toBe(40);
  });

  it("follows the percentage when it leaves room, and never warns before step 1", () => {
    expect(iterationWarningStep(config({ maxIterations: 20, softWarningPercent: 50 }))).toBe(10);
    expect(iterationWarningStep(config({ maxIterations: 10, softWarningPercent: 99 }))).toBe(8);
    expect(iterationWarningStep(config({ maxIterations: 3, softWarningPercent: 10 }))).toBe(1);
  });

  it("gives no warning for a single iteration", () => {
    expect(iterationWarningStep(config({ maxIterations: 1 }))).toBeUndefined();
  });
});

describe("dueWarnings", () => {
  const cfg = {
    maxIterations: 10,
    softWarningPercent: 70,
    tokenBudget: 10_000,
    tokenWarningPercent: 80,
    timeoutSeconds: 100,
  };

  it("gives nothing below every threshold", () => {
    expect(dueWarnings(state({ step: 6, inputTokens: 7_999, now: T0 + 79_999 }, cfg))).toEqual([]);
  });

  it("gives the iteration warning from its step on, once", () => {
    expect(dueWarnings(state({ step: 7 }, cfg))).toEqual([{ budget: "iterations", used: 7, limit: 10, percent: 70 }]);
    expect(dueWarnings(state({ step: 8, warned: ["iterations"] }, cfg))).toEqual([]);
  });

  it("gives the token warning at tokenWarningPercent of the budget, input and output together", () => {
    expect(dueWarnings(state({ inputTokens: 5_000, outputTokens: 3_000 }, cfg))).toEqual([
      { budget: "tokens", used: 8_000, limit: 10_000, percent: 80 },
    ]);
    expect(dueWarnings(state({ inputTokens: 9_000, warned: ["tokens"] }, cfg))).toEqual([]);
  });

  it("SC-006: gives the token and time warnings with 20 % left even when set later", () => {
    const late = { ...cfg, tokenWarningPercent: 95 };
    expect(dueWarnings(state({ inputTokens: 7_999, now: T0 + 79_999 }, late))).toEqual([]);
    expect(dueWarnings(state({ inputTokens: 8_000, now: T0 + 80_000 }, late))).toEqual([
      { budget: "tokens", used: 8_000, limit: 10_000, percent: 80 },
      { budget: "time", used: 80, limit: 100, percent: 80 },
    ]);
  });

  it("SC-006: warns when a step like the last one would pass the threshold, before it does", () => {
    // 4,000 used, the last step took 4,500: the next would reach 8,500, past 8,000.
    expect(dueWarnings(state({ inputTokens: 4_000, lastStepTokens: 4_500 }, cfg))).toEqual([
      { budget: "tokens", used: 4_000, limit: 10_000, percent: 40, nextPercent: 85 },
    ]);
    expect(dueWarnings(state({ inputTokens: 4_000, lastStepTokens: 3_999 }, cfg))).toEqual([]);
    expect(describeWarning({ budget: "tokens", used: 4_000, limit: 10_000, percent: 40, nextPercent: 85 })).toContain(
      "Token budget at 40% (4,000/10,000 tokens, 6,000 left; a step like the last one would take it to 85%)",
    );
  });

  it("gives the time warning on whole seconds, not counting time waiting for the user", () => {
    expect(dueWarnings(state({ now: T0 + 80_000 }, cfg))).toEqual([
      { budget: "time", used: 80, limit: 100, percent: 80 },
    ]);
    expect(dueWarnings(state({ now: T0 + 90_000, pausedMs: 20_000 }, cfg))).toEqual([]);
  });

  it("gives all due warnings together, in a stable order", () => {
    const due = dueWarnings(state({ step: 9, inputTokens: 9_000, now: T0 + 95_000 }, cfg));
    expect(due.map((w) => w.budget)).toEqual(["iterations", "tokens", "time"]);
  });
});

describe("describeWarning", () => {
  it("reads as seed 001's example, with current value, limit and advice (FR-011)", () => {
    const text = describeWarning({ budget: "iterations", used: 7, limit: 10, percent: 70 });
    expect(text.startsWith("Approaching iteration limit (7/10)")).toBe(true);
    expect(text).toContain("4 iterations left including this one");
    expect(text).toContain("Consider wrapping up your response.");
  });

  it("uses the singular on the last iteration", () => {
    expect(describeWarning({ budget: "iterations", used: 10, limit: 10, percent: 100 })).toContain(
      "1 iteration left including this one",
    );
  });

  it("gives token figures with thousands separators and what is left", () => {
    const text = describeWarning({ budget: "tokens", used: 40_000, limit: 50_000, percent: 80 });
    expect(text).toContain("Token budget at 80% (40,000/50,000 tokens, 10,000 left)");
  });

  it("gives time in seconds with what is left", () => {
    expect(describeWarning({ budget: "time", used: 96, limit: 120, percent: 80 })).toContain(
      "Time limit at 80% (96/120 s, 24 s left)",
    );
  });
});
