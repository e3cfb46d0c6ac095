// Soft warnings before a hard limit (seed 001 FR-009/FR-011, SC-003; seed 000 US3, SC-006): iterations
// at softWarningPercent, tokens and time at tokenWarningPercent, each once per turn. Whatever the
// percentages say, a warning comes with at least 20 % of the limit left (seed 000 SC-006), and the
// iteration warning at least two steps before the limit where the limit allows.
import type { AgentConfig } from "../protocol";
import { type AgentState, type BudgetKind, elapsedMs, tokensUsed } from "./state";

export interface BudgetWarning {
  budget: BudgetKind;
  used: number;
  limit: number;
  percent: number;
  /** Tokens: where a step like the last one would take the budget (percent), when that is what warns. */
  nextPercent?: number;
}

/** The latest a warning may come: with 20 % of the limit left (seed 000 SC-006). */
export const LATEST_WARNING_PERCENT = 80;

/** The step at which the iteration warning is due, or undefined when the limit is too small to warn. */
export function iterationWarningStep(config: AgentConfig): number | undefined {
  const max = config.maxIterations;
  if (max < 2) return undefined;
  const byPercent = Math.ceil((max * config.softWarningPercent) / 100);
  const latest = Math.floor((max * LATEST_WARNING_PERCENT) / 100);
  return Math.max(1, Math.min(byPercent, latest, max - 2));
}

/** The percentage at which a warning is due: the user's, but never past LATEST_WARNING_PERCENT. */
export const warningPercent = (configured: number) => Math.min(configured, LATEST_WARNING_PERCENT);

export function dueWarnings(s: AgentState, c: AgentConfig = s.config): BudgetWarning[] {
  const due: BudgetWarning[] = [];
  const percent = (used: number, limit: number) => Math.round((used / limit) * 100);
  const warnStep = iterationWarningStep(c);
  if (warnStep !== undefined && s.step >= warnStep && !s.warned.includes("iterations")) {
    due.push({ budget: "iterations", used: s.step, limit: c.maxIterations, percent: percent(s.step, c.maxIterations) });
  }
  const at = warningPercent(c.tokenWarningPercent);
  const tokens = tokensUsed(s);
  // Every call sends the whole context again, so one step can take the budget from 60 % to past 100 %:
  // warn already when a step like the last one would cross the threshold, while there is room to wrap up.
  const threshold = (c.tokenBudget * at) / 100;
  const next = tokens + s.lastStepTokens;
  if (next >= threshold && !s.warned.includes("tokens")) {
    due.push({
      budget: "tokens",
      used: tokens,
      limit: c.tokenBudget,
      percent: percent(tokens, c.tokenBudget),
      ...(tokens < threshold ? { nextPercent: percent(next, c.tokenBudget) } : {}),
    });
  }
  const ms = elapsedMs(s);
  const seconds = Math.floor(ms / 1000);
  if (ms >= (c.timeoutSeconds * 1000 * at) / 100 && !s.warned.includes("time")) {
    due.push({ budget: "time", used: seconds, limit: c.timeoutSeconds, percent: percent(seconds, c.timeoutSeconds) });
  }
  return due;
}

const ADVICE = "Consider wrapping up your response.";

/** The line the user and the model read, e.g. "Approaching iteration limit (7/10)". */
export function describeWarning(w: BudgetWarning): string {
  switch (w.budget) {
    case "iterations":
      return `Approaching iteration limit (${w.used}/${w.limit}): ${w.limit - w.used + 1} iteration${w.limit - w.used === 0 ? "" : "s"} left including this one. ${ADVICE}`;
    case "tokens": {
      const next = w.nextPercent === undefined ? "" : `; a step like the last one would take it to ${w.nextPercent}%`;
      return `Token budget at ${w.percent}% (${w.used.toLocaleString("en-US")}/${w.limit.toLocaleString("en-US")} tokens, ${(w.limit - w.used).toLocaleString("en-US")} left${next}). ${ADVICE}`;
    }
    case "time":
      return `Time limit at ${w.percent}% (${w.used}/${w.limit} s, ${w.limit - w.used} s left). ${ADVICE}`;
  }
}
