import { describe, expect, it } from "vitest";
import { canonicalJson, createState, elapsedMs, recordAction, tokensUsed } from "../../../agent/state";
import { config, failed, ok, state, T0 } from "./fixtures";

describe("createState", () => {
  it("starts a turn with nothing used, nothing warned and the given clock", () => {
    const cfg = config({ maxIterations: 4 });
    const s = createState(cfg, T0);
    expect(s.config).toBe(cfg);
    expect(s).toMatchObject({ step: 0, startedAt: T0, now: T0, pausedMs: 0, consecutiveErrors: 0 });
    expect([s.finished, s.cancelled, s.timedOut, s.inputTimedOut]).toEqual([false, false, false, false]);
    expect(s.actions).toEqual([]);
    expect(s.warned).toEqual([]);
    expect(s.loopWarnings).toEqual([]);
    expect(s.extensions).toEqual({});
    expect(s.termination).toBeUndefined();
    expect(tokensUsed(s)).toBe(0);
    expect(elapsedMs(s)).toBe(0);
  });

  it("gives every turn its own arrays, so one turn cannot leak into the next", () => {
    const a = createState(config(), T0);
    const b = createState(config(), T0);
    a.actions.push(ok("x"));
    a.warned.push("tokens");
    expect(b.actions).toEqual([]);
    expect(b.warned).toEqual([]);
  });

  it("does not count time spent waiting for the user", () => {
    expect(elapsedMs(state({ now: T0 + 10_000, pausedMs: 4_000 }))).toBe(6_000);
    expect(tokensUsed(state({ inputTokens: 120, outputTokens: 30 }))).toBe(150);
  });
});

describe("canonicalJson", () => {
  it("ignores key order at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: "s" } })).toBe(
      canonicalJson({ a: { c: "s", d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
  });

  it("keeps array order and value differences significant", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ q: "a" })).not.toBe(canonicalJson({ q: "b" }));
    expect(canonicalJson({ n: 1 })).not.toBe(canonicalJson({ n: "1" }));
  });

  it("produces JSON that parses back to the same value, with undefined keys dropped", () => {
    const value = { z: [true, null, 3.5, 'é"q'], a: { k: undefined, m: "x" } };
    expect(JSON.parse(canonicalJson(value))).toEqual({ a: { m: "x" }, z: [true, null, 3.5, 'é"q'] });
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson(undefined)).toBe("null");
  });
});

describe("recordAction", () => {
  it("appends without mutating and counts consecutive errors, reset by a success", () => {
    const s0 = state();
    const s1 = recordAction(s0, failed("t", {}, "boom"));
    const s2 = recordAction(s1, failed("t", { a: 1 }, "boom"));
    const s3 = recordAction(s2, ok("t"));
    expect(s0.actions).toEqual([]);
    expect(s1.actions).toHaveLength(1);
    expect([s1.consecutiveErrors, s2.consecutiveErrors, s3.consecutiveErrors]).toEqual([1, 2, 0]);
    expect(s3.actions.map((a) => a.ok)).toEqual([false, false, true]);
  });
});
