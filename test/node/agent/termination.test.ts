import { describe, expect, it } from "vitest";
import { CYCLE_STOP_ROUNDS } from "../../../agent/loop-detection";
import {
  completed,
  ERROR_LIMIT,
  errorLimit,
  firstStop,
  inputTimedOut,
  maxIterations,
  modelFailed,
  NO_PROGRESS_REPEATS,
  noProgress,
  quotaReached,
  STOP_CONDITIONS,
  timeout,
  tokenBudget,
  userCancelled,
} from "../../../agent/termination";
import { failed, ok, state, T0 } from "./fixtures";

const c = (s: ReturnType<typeof state>) => s.config;

describe("userCancelled", () => {
  it("stops only when the user cancelled", () => {
    expect(userCancelled(state({ cancelled: true }), c(state()))).toBe("user_cancelled");
    expect(userCancelled(state(), c(state()))).toBeUndefined();
  });
});

describe("inputTimedOut", () => {
  it("stops when a question went unanswered", () => {
    expect(inputTimedOut(state({ inputTimedOut: true }), c(state()))).toBe("input_timeout");
    expect(inputTimedOut(state(), c(state()))).toBeUndefined();
  });
});

describe("modelFailed", () => {
  it("stops when the model call failed", () => {
    expect(modelFailed(state({ llmError: "429" }), c(state()))).toBe("llm_error");
    expect(modelFailed(state(), c(state()))).toBeUndefined();
  });
});

describe("completed", () => {
  it("stops when the tree judged the goal reached", () => {
    expect(completed(state({ finished: true }), c(state()))).toBe("completed");
    expect(completed(state(), c(state()))).toBeUndefined();
  });
});

describe("maxIterations", () => {
  it("stops once the step count reaches the configured limit, not before", () => {
    const s = state({}, { maxIterations: 5 });
    expect(maxIterations({ ...s, step: 4 }, s.config)).toBeUndefined();
    expect(maxIterations({ ...s, step: 5 }, s.config)).toBe("max_iterations");
    expect(maxIterations({ ...s, step: 6 }, s.config)).toBe("max_iterations");
  });

  it("reads the limit from the config argument", () => {
    const s = state({ step: 5 }, { maxIterations: 5 });
    expect(maxIterations(s, { ...s.config, maxIterations: 6 })).toBeUndefined();
  });
});

describe("tokenBudget", () => {
  it("stops when input plus output tokens reach the budget", () => {
    const s = state({}, { tokenBudget: 1000 });
    expect(tokenBudget({ ...s, inputTokens: 600, outputTokens: 399 }, s.config)).toBeUndefined();
    expect(tokenBudget({ ...s, inputTokens: 600, outputTokens: 400 }, s.config)).toBe("token_budget");
  });
});

describe("timeout", () => {
  it("stops when the elapsed time, less time waiting for the user, reaches the limit", () => {
    const s = state({}, { timeoutSeconds: 10 });
    expect(timeout({ ...s, now: T0 + 9_999 }, s.config)).toBeUndefined();
    expect(timeout({ ...s, now: T0 + 10_000 }, s.config)).toBe("timeout");
    expect(timeout({ ...s, now: T0 + 15_000, pausedMs: 6_000 }, s.config)).toBeUndefined();
  });

  it("stops when the turn clock already fired", () => {
    expect(timeout(state({ timedOut: true }), c(state()))).toBe("timeout");
  });
});

describe("noProgress", () => {
  it(`stops on ${NO_PROGRESS_REPEATS} identical calls in a row, whatever the key order`, () => {
    const two = [ok("search", { q: "a", n: 1 }), ok("search", { n: 1, q: "a" })];
    expect(noProgress(state({ actions: two }), c(state()))).toBeUndefined();
    expect(noProgress(state({ actions: [...two, ok("search", { q: "a", n: 1 })] }), c(state()))).toBe("no_progress");
  });

  it("does not stop when the arguments changed", () => {
    const actions = [ok("search", { q: "a" }), ok("search", { q: "b" }), ok("search", { q: "c" })];
    expect(noProgress(state({ actions }), c(state()))).toBeUndefined();
  });

  it("stops a long alternation only after the model was warned about it", () => {
    const actions = Array.from({ length: CYCLE_STOP_ROUNDS * 2 }, (_, i) => ok(i % 2 ? "b" : "a"));
    expect(noProgress(state({ actions }), c(state()))).toBeUndefined();
    expect(noProgress(state({ actions, loopWarnings: ["alternation:a|b"] }), c(state()))).toBe("no_progress");
    const shorter = actions.slice(1);
    expect(noProgress(state({ actions: shorter, loopWarnings: ["alternation:b|a"] }), c(state()))).toBeUndefined();
  });
});

describe("errorLimit", () => {
  it(`stops at ${ERROR_LIMIT} consecutive tool errors`, () => {
    expect(errorLimit(state({ consecutiveErrors: ERROR_LIMIT - 1 }), c(state()))).toBeUndefined();
    expect(errorLimit(state({ consecutiveErrors: ERROR_LIMIT }), c(state()))).toBe("error_limit");
  });
});

describe("firstStop", () => {
  it("checks the conditions in seed 001's priority order, the loop's own reasons first", () => {
    expect(STOP_CONDITIONS).toEqual([
      userCancelled,
      inputTimedOut,
      quotaReached,
      modelFailed,
      completed,
      maxIterations,
      tokenBudget,
      timeout,
      noProgress,
      errorLimit,
    ]);
  });

  it("lets go on a fresh turn", () => {
    expect(firstStop(state())).toBeUndefined();
  });

  it("reports the highest-priority reason when several hold at once", () => {
    const everything = state(
      {
        cancelled: true,
        inputTimedOut: true,
        llmError: "x",
        finished: true,
        step: 3,
        inputTokens: 5000,
        now: T0 + 60_000,
        actions: [failed("t", {}, "e"), failed("t", {}, "e"), failed("t", {}, "e")],
        consecutiveErrors: 3,
      },
      { maxIterations: 3, tokenBudget: 1000, timeoutSeconds: 10 },
    );
    const expected = [
      "user_cancelled",
      "input_timeout",
      "llm_error",
      "completed",
      "max_iterations",
      "token_budget",
      "timeout",
      "no_progress",
      "error_limit",
    ];
    const clear: Partial<typeof everything>[] = [
      { cancelled: false },
      { inputTimedOut: false },
      { llmError: undefined },
      { finished: false },
      { step: 0 },
      { inputTokens: 0 },
      { now: T0 },
      { actions: [failed("t", { a: 1 }, "e"), failed("t", { a: 2 }, "e"), failed("t", { a: 3 }, "e")] },
      { consecutiveErrors: 0 },
    ];
    let s = everything;
    const seen: (string | undefined)[] = [];
    for (const patch of clear) {
      seen.push(firstStop(s));
      s = { ...s, ...patch };
    }
    expect(seen).toEqual(expected);
    expect(firstStop(s)).toBeUndefined();
  });

  it("uses an explicit config over the state's own", () => {
    const s = state({ step: 3 }, { maxIterations: 3 });
    expect(firstStop(s)).toBe("max_iterations");
    expect(firstStop(s, { ...s.config, maxIterations: 4 })).toBeUndefined();
  });
});
