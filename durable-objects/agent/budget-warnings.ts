// Soft warnings before a hard limit (seed 001 FR-009/FR-011, SC-003; seed 000 US3): iterations at
// softWarningPercent, tokens and time at tokenWarningPercent, each once per turn, and the iteration
// warning at least two steps before the limit where the limit allows.
import type { AgentConfig } from "../../protocol";
import { type AgentState, type BudgetKind, elapsedMs, tokensUsed } from "./state";

export interface BudgetWarning {
  budget: BudgetKind;
  used: number;
  limit: number;
  percent: number;
}

/** The step at which the iteration warning is due, or undefined when the limit is too small to warn. */
export function iterationWarningStep(config: AgentConfig): number | undefined {
  const max = config.maxIterations;
  if (max < 2) return undefined;
  const byPercent = Math.ceil((max * config.softWarningPercent) / 100);
  return Math.max(1, Math.min(byPercent, max - 2));
}

export function dueWarnings(s: AgentState, c: AgentConfig = s.config): BudgetWarning[] {
  const due: BudgetWarning[] = [];
  const percent = (used: number, limit: number) => Math.round((used / limit) * 100);
  const warnStep = iterationWarningStep(c);
  if (warnStep !== undefined && s.step >= warnStep && !s.warned.includes("iterations")) {
    due.push({ budget: "iterations", used: s.step, limit: c.maxIterations, percent: percent(s.step, c.maxIterations) });
  }
  const tokens = tokensUsed(s);
  if (tokens >= (c.tokenBudget * c.tokenWarningPercent) / 100 && !s.warned.includes("tokens")) {
    due.push({ budget: "tokens", used: tokens, limit: c.tokenBudget, percent: percent(tokens, c.tokenBudget) });
  }
  const seconds = Math.floor(elapsedMs(s) / 1000);
  if (seconds >= (c.timeoutSeconds * c.tokenWarningPercent) / 100 && !s.warned.includes("time")) {
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
    case "tokens":
      return `Token budget at ${w.percent}% (${w.used.toLocaleString("en-US")}/${w.limit.toLocaleString("en-US")} tokens, ${(w.limit - w.used).toLocaleString("en-US")} left). ${ADVICE}`;
    case "time":
      return `Time limit at ${w.percent}% (${w.used}/${w.limit} s, ${w.limit - w.used} s left). ${ADVICE}`;
  }
}
