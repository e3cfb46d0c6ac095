// The seeds' success criteria as checks over one recorded run. Each returns the ways the run broke
// it, in words, so a failing property says what went wrong and fast-check can shrink towards it.
import type { LanguageModelV3Message } from "@ai-sdk/provider";
import { contextPrompt } from "../../../agent/context/model-messages";
import type { Message, TerminationReason } from "../../../protocol";
import { type RunRecord, STOP_SLACK_MS, type TurnRecord } from "./scripted-run";

/** The words a saved final answer uses to name why the turn ended (explanations.ts). */
const NAMES_REASON: Record<TerminationReason, RegExp> = {
  completed: /\S/,
  user_cancelled: /Stopped by the user/,
  max_iterations: /iteration limit/,
  token_budget: /token budget/,
  timeout: /time limit/,
  no_progress: /repeating myself/,
  error_limit: /tool errors in a row/,
  input_timeout: /not answered/,
  llm_error: /model call failed/,
  interrupted: /server restarted 3 times/,
  quota_exceeded: /quota/,
};

/** Warnings come at the configured percentage, and never with less than 20 % left (seed 000 SC-006). */
const warnPercent = (configured: number) => Math.min(configured, 80);

type Check = (run: RunRecord, turn: TurnRecord, index: number) => string[];

const reasonOf = (turn: TurnRecord) => turn.outcome.reason;
const turnLog = (run: RunRecord, turn: TurnRecord) => run.log.slice(turn.logFrom, turn.logTo);
const budgetWarnings = (turn: TurnRecord, budget: string) =>
  turn.events.filter((e) => e.type === "budget.warning" && (e.payload as { budget: string }).budget === budget);

/** SC-002: iterations never exceed the limit; tokens only by the one charge that crossed it; time only by a slice. */
export const limitsHold: Check = (run, turn) => {
  const c = run.script.config;
  const out: string[] = [];
  const steps = turn.frames.filter((f) => f.type === "agent_update" && f.update_type === "agent_turn_start").length;
  if (steps > c.maxIterations) out.push(`${steps} steps ran with maxIterations ${c.maxIterations}`);
  const total = turn.outcome.usage.total_tokens;
  const known = turn.charges.reduce((sum, charge) => sum + charge.tokens, 0);
  // An interrupted call's tokens are the loop's estimate: the last charge of the turn.
  const charges = total > known ? [...turn.charges, { tokens: total - known }] : turn.charges;
  // Before the charge that crossed the budget the turn was under it; a subagent counts here up to the
  // share it was given (its own crossing call may pass that, as the parent's may pass the budget).
  const beforeLast = charges.slice(0, -1).reduce((sum, ch) => sum + Math.min(ch.tokens, ch.given ?? ch.tokens), 0);
  if (total > c.tokenBudget && beforeLast >= c.tokenBudget)
    out.push(
      `tokens ${total} over the budget ${c.tokenBudget} by more than the charge that crossed it (${beforeLast} before it)`,
    );
  for (const r of turn.requests)
    if (r.spentBefore >= c.tokenBudget)
      out.push(`a model request went out at ${r.spentBefore}/${c.tokenBudget} tokens`);
  const elapsed = turn.endedAt - turn.startedAt - turn.pausedMs;
  if (elapsed > c.timeoutSeconds * 1000 + STOP_SLACK_MS)
    out.push(`the turn took ${elapsed} ms against a limit of ${c.timeoutSeconds} s`);
  if (turn.stoppedAt !== undefined && turn.endedAt - turn.stoppedAt > STOP_SLACK_MS)
    out.push(`the turn ended ${turn.endedAt - turn.stoppedAt} ms after Stop`);
  for (const [step, ran] of turn.ranPerStep)
    if (ran > c.maxToolCallsPerTurn) out.push(`${ran} tool calls ran in step ${step} (cap ${c.maxToolCallsPerTurn})`);
  if (turn.maxConcurrent > c.maxParallelTools)
    out.push(`${turn.maxConcurrent} tools ran at once (cap ${c.maxParallelTools})`);
  return out;
};

/** Exactly one response_complete, and one saved final answer that is not empty and says why the turn ended. */
export const oneExplainedAnswer: Check = (run, turn) => {
  const out: string[] = [];
  const completes = turn.frames.filter((f) => f.type === "response_complete");
  if (completes.length !== 1) out.push(`${completes.length} response_complete frames`);
  const finals = turnLog(run, turn).filter((m) => m.role === "agent" && m.phase === "final");
  if (finals.length !== 1) return [...out, `${finals.length} final answers saved`];
  const final = finals[0] as Extract<Message, { role: "agent" }>;
  const reason = reasonOf(turn);
  if (completes[0]?.type === "response_complete" && completes[0].termination_reason !== reason)
    out.push(`response_complete says ${completes[0].termination_reason}, the turn ended ${reason}`);
  if (final.termination_reason !== reason) out.push(`the final answer says ${final.termination_reason}, not ${reason}`);
  if (!final.content.trim()) out.push("the final answer is empty");
  if (!NAMES_REASON[reason].test(final.content)) out.push(`the final answer does not name ${reason}: ${final.content}`);
  if (run.log.indexOf(final) !== turn.logTo - 1 && !laterOnlySystem(run, turn, final))
    out.push("something other than notifications was saved after the final answer");
  return out;
};

const laterOnlySystem = (run: RunRecord, turn: TurnRecord, final: Message) =>
  run.log.slice(run.log.indexOf(final) + 1, turn.logTo).every((m) => m.role === "system");

/**
 * SC-003/SC-006: a turn ended by a limit was warned first, where the limit allowed it: the iteration
 * warning at least two steps before the last and with at least 20 % left; the token and time
 * warnings at the first step that began past the warning threshold.
 */
export const warnedBeforeLimits: Check = (run, turn) => {
  const c = run.script.config;
  const out: string[] = [];
  const reason = reasonOf(turn);
  if (reason === "max_iterations" && c.maxIterations >= 3) {
    const w = budgetWarnings(turn, "iterations")[0];
    if (!w) out.push(`no iteration warning before the limit of ${c.maxIterations}`);
    else {
      if (w.step > c.maxIterations - 2) out.push(`the iteration warning came at step ${w.step} of ${c.maxIterations}`);
      if (w.step > c.maxIterations * 0.8)
        out.push(`the iteration warning left less than 20 % (${w.step}/${c.maxIterations})`);
    }
  }
  if (reason === "token_budget") {
    // Due at the first step that begins past the threshold, or that a step like the last one would take past it.
    const threshold = (c.tokenBudget * warnPercent(c.tokenWarningPercent)) / 100;
    const due = turn.stepStarts.find((s, i) => 2 * s.spent - (turn.stepStarts[i - 1]?.spent ?? 0) >= threshold);
    const w = budgetWarnings(turn, "tokens")[0];
    if (due && (!w || w.step > due.step))
      out.push(`no token warning at step ${due.step} (${due.spent}/${c.tokenBudget} tokens)`);
  }
  if (reason === "timeout") {
    const threshold = (c.timeoutSeconds * 1000 * warnPercent(c.tokenWarningPercent)) / 100;
    const due = turn.stepStarts.find((s) => s.active >= threshold);
    const w = budgetWarnings(turn, "time")[0];
    if (due && (!w || w.step > due.step)) out.push(`no time warning at step ${due.step} (${due.active} ms)`);
  }
  return out;
};

/**
 * Seed 000 SC-001: every failed tool call is in the model's next request, as an error result and a
 * notification. A history compacted on the way folds both into the summary, which names the tool.
 */
export const failuresReachTheModel: Check = (run, turn) => {
  const out: string[] = [];
  const requests = run.turns.flatMap((t) => t.requests).filter((r) => !r.compaction);
  for (let i = turn.logFrom; i < turn.logTo; i++) {
    const m = run.log[i];
    if (m?.role !== "tool" || m.status === "success") continue;
    const next = requests.find((r) => r.logLength > i);
    if (!next) continue;
    const result = next.prompt
      .flatMap((p: LanguageModelV3Message) => (p.role === "tool" ? p.content : []))
      .find((part) => part.type === "tool-result" && part.toolCallId === m.call_id);
    const systemTexts = next.prompt.flatMap((p) => (p.role === "system" ? [p.content] : []));
    const compacted = next.prompt.some((p) => p.role === "system" && p.content.startsWith("[Conversation summary]"));
    const named = systemTexts.some((text) => text.includes(m.tool));
    if ((result?.type !== "tool-result" || result.output.type !== "error-text") && !(compacted && named))
      out.push(`the failure of ${m.tool} (${m.call_id}) is not in the next request`);
    const stoppedSkip = m.error?.startsWith("Cancelled: the turn was stopped before");
    if (!named && !stoppedSkip) out.push(`no notification of the failure of ${m.tool} in the next request`);
  }
  return out;
};

/** Seed 001 SC-005: what the user wrote (the message, the answers to questions) is in the log, unchanged. */
export const nothingLost: Check = (run, turn) => {
  const out: string[] = [];
  const user = run.log[turn.logFrom];
  if (user?.role !== "user" || user.content !== turn.script.user) out.push("the user's message is not in the log");
  const results = turnLog(run, turn).flatMap((m) => (m.role === "tool" && m.status === "success" ? [m.result] : []));
  for (const answer of turn.answers)
    if (!results.some((r) => (r as { answer?: string } | undefined)?.answer === answer))
      out.push(`the user's answer "${answer}" is not in the log`);
  return out;
};

/** Seed 002: rebuilding each request's context from the log as saved gives the same bytes. */
export const replaysByteIdentical: Check = (run, turn) => {
  const out: string[] = [];
  const saved = JSON.parse(JSON.stringify(run.log)) as Message[];
  for (const r of turn.requests) {
    if (r.compaction) continue;
    const rebuilt = contextPrompt(run.system, saved.slice(0, r.logLength), run.budget);
    const sent = r.prompt.slice(0, rebuilt.length);
    const extra = r.prompt.slice(rebuilt.length);
    if (JSON.stringify(sent) !== JSON.stringify(rebuilt)) out.push(`request at log ${r.logLength} does not replay`);
    if (extra.length > 1 || extra.some((m) => m.role !== "system"))
      out.push("a request carries more than one instruction");
  }
  return out;
};

export const CHECKS: Record<string, Check> = {
  limitsHold,
  oneExplainedAnswer,
  warnedBeforeLimits,
  failuresReachTheModel,
  nothingLost,
  replaysByteIdentical,
};

/** Every broken property of a run, "check: what" per line. */
export function violations(run: RunRecord): string[] {
  return run.turns.flatMap((turn, i) =>
    Object.entries(CHECKS).flatMap(([name, check]) => check(run, turn, i).map((v) => `turn ${i + 1} ${name}: ${v}`)),
  );
}
