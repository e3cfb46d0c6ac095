// Repetition the model should hear about before it is stopped. Seed 001 stops on 3 identical calls
// in a row (no_progress); we also catch A-B-A-B alternation and the same error under different
// arguments, warn first (a loop.detected event), and stop only if the pattern goes on.
import type { ActionRecord } from "./state";

export type LoopPattern =
  | { kind: "repeat"; tool: string; count: number }
  | { kind: "alternation"; tools: [string, string]; count: number }
  | { kind: "repeated_error"; tool: string; error: string; count: number };

const same = (a: ActionRecord | undefined, b: ActionRecord | undefined) =>
  !!a && !!b && a.tool === b.tool && a.argsKey === b.argsKey;

/** How many of the last actions repeat the very last one exactly. */
export function trailingRepeats(actions: readonly ActionRecord[]): number {
  const last = actions.at(-1);
  let n = 0;
  for (let i = actions.length - 1; i >= 0 && same(actions[i], last); i--) n++;
  return n;
}

/** Length of the trailing run that alternates between two different calls (A B A B …). */
export function trailingAlternation(actions: readonly ActionRecord[]): number {
  const n = actions.length;
  const a = actions[n - 1];
  const b = actions[n - 2];
  if (!a || !b || same(a, b)) return 0;
  let run = 2;
  for (let i = n - 3; i >= 0 && same(actions[i], run % 2 === 0 ? a : b); i--) run++;
  return run;
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

export const ALTERNATION_WARN = 4;
export const ALTERNATION_STOP = 6;
export const SAME_ERROR_WARN = 2;

/** A pattern worth a warning now, if any (the stop thresholds live in termination.ts). */
export function detectLoop(actions: readonly ActionRecord[]): LoopPattern | undefined {
  const last = actions.at(-1);
  if (!last) return undefined;
  const sameError = trailingSameError(actions);
  if (sameError >= SAME_ERROR_WARN && trailingRepeats(actions) < sameError) {
    return { kind: "repeated_error", tool: last.tool, error: last.error ?? "", count: sameError };
  }
  const alternation = trailingAlternation(actions);
  if (alternation >= ALTERNATION_WARN) {
    return { kind: "alternation", tools: [actions.at(-2)?.tool ?? "", last.tool], count: alternation };
  }
  const repeats = trailingRepeats(actions);
  if (repeats === 2) return { kind: "repeat", tool: last.tool, count: repeats };
  return undefined;
}

export function patternKey(p: LoopPattern): string {
  return p.kind === "alternation" ? `alternation:${p.tools.join("|")}` : `${p.kind}:${p.tool}`;
}

export function describeLoop(p: LoopPattern): string {
  switch (p.kind) {
    case "repeat":
      return `You called ${p.tool} ${p.count} times in a row with the same arguments. A third identical call will end the turn; try something different or answer with what you have.`;
    case "alternation":
      return `You are alternating between ${p.tools[0]} and ${p.tools[1]} with the same arguments (${p.count} calls). If this goes on the turn will end; change approach or answer with what you have.`;
    case "repeated_error":
      return `${p.tool} failed ${p.count} times in a row with the same error ("${p.error}") even with different arguments. Changing the arguments alone will not help; try another approach or ask the user.`;
  }
}
