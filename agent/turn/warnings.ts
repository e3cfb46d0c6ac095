// What the loop tells the agent through the bus as a turn goes: a budget close to its limit, a loop
// in its tool calls, a refused model request being retried. Each becomes a System message.

import { describeWarning, dueWarnings } from "../budget-warnings";
import type { EventDraft } from "../events";
import { MAX_RETRIES, type ModelRetry } from "../llm/retry";
import { describeLoop, loopWarning } from "../loop-detection";
import type { AgentState } from "../state";

type Emit = (event: EventDraft) => void;

/** Warns once per budget as it nears its limit; returns the state that remembers it. */
export function warnBudgets(state: AgentState, emit: Emit): AgentState {
  const due = dueWarnings(state);
  for (const w of due) {
    emit({
      type: "budget.warning",
      severity: "warning",
      source: "Budget Monitor",
      payload: { ...w, message: describeWarning(w) },
    });
  }
  return due.length ? { ...state, warned: [...state.warned, ...due.map((w) => w.budget)] } : state;
}

/** Points out a loop in the tool calls, once per pattern. */
export function warnLoops(state: AgentState, emit: Emit): AgentState {
  const warning = loopWarning(state);
  if (!warning) return state;
  const { pattern, key } = warning;
  emit({
    type: "loop.detected",
    severity: "warning",
    source: "Loop Detector",
    payload: { ...pattern, message: describeLoop(pattern) },
  });
  return { ...state, loopWarnings: [...state.loopWarnings, key] };
}

/** A retry of a refused model request, for the llm_retry subscriber: a System message at once. */
export function retryEvent(retry: ModelRetry): EventDraft {
  return {
    type: "llm.retry",
    severity: "warning",
    source: "Model Provider",
    payload: {
      status: retry.status ?? null,
      attempt: retry.attempt,
      max_retries: MAX_RETRIES,
      wait_seconds: Math.round(retry.waitMs / 100) / 10,
      message: retry.message,
    },
  };
}
