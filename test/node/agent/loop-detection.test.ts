import { describe, expect, it } from "vitest";
import {
  CYCLE_WARN_ROUNDS,
  describeLoop,
  detectLoop,
  patternKey,
  SAME_ERROR_WARN,
  trailingCycle,
  trailingRepeats,
  trailingSameError,
} from "../../../agent/loop-detection";
import { type ActionRecord, resultKey } from "../../../agent/state";
import { NO_PROGRESS_REPEATS } from "../../../agent/termination";
import { failed, ok } from "./fixtures";

const A = ok("search", { q: "a" });
const B = ok("read", { path: "x" });

describe("trailingRepeats", () => {
  it("counts how many of the last actions equal the very last one", () => {
    expect(trailingRepeats([])).toBe(0);
    expect(trailingRepeats([A])).toBe(1);
    expect(trailingRepeats([A, B, B, B])).toBe(3);
    expect(trailingRepeats([B, B, A])).toBe(1);
  });

  it("compares tool, canonical arguments and outcome, not key order", () => {
    expect(trailingRepeats([ok("t", { a: 1, b: 2 }), ok("t", { b: 2, a: 1 })])).toBe(2);
    expect(trailingRepeats([ok("t", { a: 1 }), ok("u", { a: 1 })])).toBe(1);
    expect(trailingRepeats([failed("t", { a: 1 }, "e"), failed("t", { a: 1 }, "e")])).toBe(2);
  });

  it("calls a retry that succeeded after a failure, or a poll whose answer changed, progress", () => {
    expect(trailingRepeats([failed("t", { a: 1 }, "timed out"), ok("t", { a: 1 })])).toBe(1);
    const poll = (percent: number): ActionRecord => ({ ...ok("task_list"), resultKey: resultKey({ percent }) });
    expect(trailingRepeats([poll(10), poll(40), poll(80)])).toBe(1);
    expect(trailingRepeats([poll(10), poll(10), poll(10)])).toBe(3);
  });
});

const trailingAlternation = (actions: ActionRecord[]) => trailingCycle(actions, 2);
const ALTERNATION_WARN = CYCLE_WARN_ROUNDS * 2;

describe("trailingCycle of two calls (A B A B)", () => {
  it("measures the trailing A B A B run", () => {
    expect(trailingAlternation([])).toBe(0);
    expect(trailingAlternation([A])).toBe(0);
    expect(trailingAlternation([A, A])).toBe(0);
    expect(trailingAlternation([A, B])).toBe(2);
    expect(trailingAlternation([B, B, A, B, A, B])).toBe(5);
    expect(trailingAlternation([A, B, A, B, A, B])).toBe(6);
  });

  it("breaks on a third call", () => {
    const C = ok("list");
    expect(trailingAlternation([A, B, C, A, B])).toBe(2);
  });
});

describe("trailingCycle", () => {
  const C = ok("list");
  it("measures a trailing A B C A B C run of three different calls", () => {
    expect(trailingCycle([A, B, C], 3)).toBe(3);
    expect(trailingCycle([C, A, B, C, A, B, C], 3)).toBe(7);
    expect(trailingCycle([A, B, C, A, C, B], 3)).toBe(3);
    expect(trailingCycle([A, A, B], 3)).toBe(0);
  });

  it("warns after two rounds of a three-call cycle", () => {
    const rounds = (n: number) => Array.from({ length: n }, (_, i) => [A, B, C][i % 3] as ActionRecord);
    expect(detectLoop(rounds(5))).toBeUndefined();
    expect(detectLoop(rounds(6))).toEqual({ kind: "alternation", tools: ["search", "read", "list"], count: 6 });
  });
});

describe("trailingSameError", () => {
  it("counts trailing failures of one tool with one message, whatever the arguments", () => {
    expect(trailingSameError([])).toBe(0);
    expect(trailingSameError([failed("t", { a: 1 }, "e")])).toBe(1);
    expect(trailingSameError([failed("t", { a: 1 }, "e"), failed("t", { a: 2 }, "e")])).toBe(2);
    expect(trailingSameError([failed("t", { a: 1 }, "e"), ok("t", { a: 2 })])).toBe(0);
  });

  it("breaks on another tool, another message or a success", () => {
    expect(trailingSameError([failed("u", {}, "e"), failed("t", {}, "e")])).toBe(1);
    expect(trailingSameError([failed("t", {}, "other"), failed("t", {}, "e")])).toBe(1);
    expect(trailingSameError([failed("t", {}, "e"), ok("t"), failed("t", {}, "e")])).toBe(1);
  });
});

describe("detectLoop", () => {
  it("says nothing about varied work", () => {
    expect(detectLoop([])).toBeUndefined();
    expect(detectLoop([A])).toBeUndefined();
    expect(detectLoop([A, B, ok("list")])).toBeUndefined();
  });

  it("warns on the second identical call, before the third would stop the turn", () => {
    expect(detectLoop([B, A, A])).toEqual({ kind: "repeat", tool: "search", count: 2 });
    expect(NO_PROGRESS_REPEATS).toBe(3);
  });

  it("warns on alternation from the warn threshold", () => {
    const run = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? B : A));
    expect(detectLoop(run(ALTERNATION_WARN - 1))).toBeUndefined();
    expect(detectLoop(run(ALTERNATION_WARN))).toEqual({
      kind: "alternation",
      tools: ["search", "read"],
      count: ALTERNATION_WARN,
    });
  });

  it("warns when one tool keeps failing the same way under different arguments", () => {
    const actions = [failed("read", { p: 1 }, "not found"), failed("read", { p: 2 }, "not found")];
    expect(SAME_ERROR_WARN).toBe(2);
    expect(detectLoop(actions)).toEqual({ kind: "repeated_error", tool: "read", error: "not found", count: 2 });
  });

  it("calls identical failing calls a repeat, not a repeated error", () => {
    const actions = [failed("read", { p: 1 }, "not found"), failed("read", { p: 1 }, "not found")];
    expect(detectLoop(actions)).toEqual({ kind: "repeat", tool: "read", count: 2 });
  });
});

describe("patternKey", () => {
  it("names a pattern once per kind and tool(s), whatever the count", () => {
    expect(patternKey({ kind: "repeat", tool: "t", count: 2 })).toBe(
      patternKey({ kind: "repeat", tool: "t", count: 5 }),
    );
    expect(patternKey({ kind: "alternation", tools: ["a", "b"], count: 4 })).toBe("alternation:a|b");
    expect(patternKey({ kind: "repeat", tool: "t", count: 2 })).not.toBe(
      patternKey({ kind: "repeated_error", tool: "t", error: "e", count: 2 }),
    );
  });
});

describe("describeLoop", () => {
  it("tells the model what it repeated and what happens next", () => {
    const repeat = describeLoop({ kind: "repeat", tool: "vault_search", count: 2 });
    expect(repeat).toContain("vault_search 2 times");
    expect(repeat).toMatch(/third identical call will end the turn/);
    const alt = describeLoop({ kind: "alternation", tools: ["a_tool", "b_tool"], count: 4 });
    expect(alt).toContain("between a_tool and b_tool");
    expect(alt).toContain("4 calls");
    const err = describeLoop({ kind: "repeated_error", tool: "vault_read", error: "no note", count: 2 });
    expect(err).toContain("vault_read failed 2 times");
    expect(err).toContain('("no note")');
  });
});
