// When a turn ends (seed 001 FR-004): each condition a small pure predicate returning its reason,
// checked in the seed's priority order. The loop's own reasons (input_timeout, llm_error) come first:
// they describe a turn that cannot go on at all.
import type { AgentConfig, TerminationReason } from "../protocol";
import { CYCLE_STOP_ROUNDS, trailingCycleOf, trailingRepeats } from "./loop-detection";
import { type AgentState, elapsedMs, tokensUsed } from "./state";

export type StopCondition = (state: AgentState, config: AgentConfig) => TerminationReason | undefined;

export const NO_PROGRESS_REPEATS = 3;
export const ERROR_LIMIT = 3;

export const userCancelled: StopCondition = (s) => (s.cancelled ? "user_cancelled" : undefined);
export const inputTimedOut: StopCondition = (s) => (s.inputTimedOut ? "input_timeout" : undefined);
export const quotaReached: StopCondition = (s) => (s.quotaReached !== undefined ? "quota_exceeded" : undefined);
export const modelFailed: StopCondition = (s) => (s.llmError !== undefined ? "llm_error" : undefined);
export const completed: StopCondition = (s) => (s.finished ? "completed" : undefined);
export const maxIterations: StopCondition = (s, c) => (s.step >= c.maxIterations ? "max_iterations" : undefined);
export const tokenBudget: StopCondition = (s, c) => (tokensUsed(s) >= c.tokenBudget ? "token_budget" : undefined);
export const timeout: StopCondition = (s, c) =>
  s.timedOut || elapsedMs(s) >= c.timeoutSeconds * 1000 ? "timeout" : undefined;
/** A cycle already pointed out that has gone round CYCLE_STOP_ROUNDS times. */
function cycleGoesOn(s: AgentState): boolean {
  const cycle = trailingCycleOf(s.actions);
  return (
    !!cycle &&
    cycle.length >= CYCLE_STOP_ROUNDS * cycle.period &&
    s.loopWarnings.some((w) => w.startsWith("alternation:"))
  );
}

export const noProgress: StopCondition = (s) =>
  trailingRepeats(s.actions) >= NO_PROGRESS_REPEATS || cycleGoesOn(s) ? "no_progress" : undefined;
export const errorLimit: StopCondition = (s) => (s.consecutiveErrors >= ERROR_LIMIT ? "error_limit" : undefined);

export const STOP_CONDITIONS: readonly StopCondition[] = [
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
];

export function firstStop(state: AgentState, config: AgentConfig = state.config): TerminationReason | undefined {
  for (const condition of STOP_CONDITIONS) {
    const reason = condition(state, config);
    if (reason) return reason;
  }
  return undefined;
}
