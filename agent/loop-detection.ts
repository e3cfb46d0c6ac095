// Repetition the model should hear about before it is stopped. Seed 001 stops on 3 identical calls
// in a row (no_progress); we also catch A-B-A-B alternation and three-call cycles, and the same error
// under different arguments, warn first (a loop.detected event), and stop only if the pattern goes on.
// Two calls are the same when tool, arguments and outcome match: a poll whose answer changed, or a
// retry that succeeded after a passing failure, is progress (bench/loop-corpus measures the effect).
import type { ActionRecord } from "./state";

export type LoopPattern =
  | { kind: "repeat"; tool: string; count: number }
  | { kind: "alternation"; tools: string[]; count: number }
  | { kind: "repeated_error"; tool: string; error: string; count: number };

const same = (a: ActionRecord | undefined, b: ActionRecord | undefined) =>
  !!a &&
  !!b &&
  a.tool === b.tool &&
  a.argsKey === b.argsKey &&
  a.ok === b.ok &&
  (a.ok ? a.resultKey === b.resultKey : a.error === b.error);

/** How many of the last actions repeat the very last one exactly. */
export function trailingRepeats(actions: readonly ActionRecord[]): number {
  const last = actions.at(-1);
  let n = 0;
  for (let i = actions.length - 1; i >= 0 && same(actions[i], last); i--) n++;
  return n;
}

/**
 * Length of the trailing run that cycles through `period` different calls (A B A B … for 2,
 * A B C A B C … for 3): the last `period` calls, and every earlier one that equals the call a period later.
 */
export function trailingCycle(actions: readonly ActionRecord[], period: number): number {
  const n = actions.length;
  if (n < period) return 0;
  const last = actions.slice(n - period);
  if (last.some((a, i) => last.some((b, j) => i < j && same(a, b)))) return 0;
  let run = period;
  for (let i = n - period - 1; i >= 0 && same(actions[i], actions[i + period]); i--) run++;
  return run;
}

/** Cycle lengths looked for: A-B and A-B-C. A cycle is pointed out after two rounds, and stops the turn after three. */
export const CYCLE_PERIODS = [2, 3] as const;
export const CYCLE_WARN_ROUNDS = 2;
export const CYCLE_STOP_ROUNDS = 3;

/** The period of the cycle the last calls go round, with its length so far, if any. */
export function trailingCycleOf(actions: readonly ActionRecord[]): { period: number; length: number } | undefined {
  for (const period of CYCLE_PERIODS) {
    const length = trailingCycle(actions, period);
    if (length >= CYCLE_WARN_ROUNDS * period) return { period, length };
  }
  return undefined;
}

/** Consecutive failures of one tool with one error message, whatever the arguments were. */
export function trailingSameError(actions: readonly ActionRecord[]): number {
  const last = actions.at(-1);
  if (!last || last.ok) return 0;
  let n = 0;
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i];
    if (!a || a.ok || a.tool !== last.tool || a.error !== last.error) break;
    n++;
  }
  return n;
}

export const SAME_ERROR_WARN = 2;

/** A pattern worth a warning now, if any (the stop thresholds live in termination.ts). */
export function detectLoop(actions: readonly ActionRecord[]): LoopPattern | undefined {
  const last = actions.at(-1);
  if (!last) return undefined;
  const sameError = trailingSameError(actions);
  if (sameError >= SAME_ERROR_WARN && trailingRepeats(actions) < sameError) {
    return { kind: "repeated_error", tool: last.tool, error: last.error ?? "", count: sameError };
  }
  const cycle = trailingCycleOf(actions);
  if (cycle) {
    return { kind: "alternation", tools: actions.slice(-cycle.period).map((a) => a.tool), count: cycle.length };
  }
  const repeats = trailingRepeats(actions);
  if (repeats === 2) return { kind: "repeat", tool: last.tool, count: repeats };
  return undefined;
}

/** The loop warning to give now: a pattern not pointed out yet this turn, with the key that marks it given. */
export function loopWarning(state: {
  actions: readonly ActionRecord[];
  loopWarnings: readonly string[];
}): { pattern: LoopPattern; key: string } | undefined {
  const pattern = detectLoop(state.actions);
  if (!pattern) return undefined;
  const key = patternKey(pattern);
  return state.loopWarnings.includes(key) ? undefined : { pattern, key };
}

export function patternKey(p: LoopPattern): string {
  return p.kind === "alternation" ? `alternation:${p.tools.join("|")}` : `${p.kind}:${p.tool}`;
}

export function describeLoop(p: LoopPattern): string {
  switch (p.kind) {
    case "repeat":
      return `You called ${p.tool} ${p.count} times in a row with the same arguments. A third identical call will end the turn; try something different or answer with what you have.`;
    case "alternation":
      return `You are ${p.tools.length === 2 ? `alternating between ${p.tools[0]} and ${p.tools[1]}` : `going round ${p.tools.slice(0, -1).join(", ")} and ${p.tools.at(-1)}`} with the same arguments and results (${p.count} calls). If this goes on the turn will end; change approach or answer with what you have.`;
    case "repeated_error":
      return `${p.tool} failed ${p.count} times in a row with the same error ("${p.error}") even with different arguments. Changing the arguments alone will not help; try another approach or ask the user.`;
  }
}
