// AgentState: what the loop knows about the running turn. Plain data, so decision trees and stop
// conditions are pure functions of it (seed 001 "AgentState", FR-015 for `extensions`).
import type { AgentConfig, TerminationReason, Usage } from "../protocol";
import type { ModelUsage } from "./llm/call-model";

/** One tool call as loop detection sees it. */
export interface ActionRecord {
  tool: string;
  /** Canonical JSON of the arguments: key order does not make two calls different. */
  argsKey: string;
  ok: boolean;
  error?: string;
  /** A fingerprint of what a successful call returned (resultKey): a poll whose answer changed is progress. */
  resultKey?: string;
}

export type BudgetKind = "iterations" | "tokens" | "time";

export interface AgentState {
  config: AgentConfig;
  /** Steps (iterations) started so far; the current step's number. */
  step: number;
  inputTokens: number;
  outputTokens: number;
  /**
   * Tokens the previous step took (model calls, subagents): the next one, with the context only
   * growing, takes at least about as many. Set at each step's start.
   */
  lastStepTokens: number;
  /** Input tokens served from the provider's prompt cache (part of inputTokens); undefined until one is reported. */
  cachedInputTokens?: number;
  /** Output tokens spent reasoning (part of outputTokens); undefined until one is reported. */
  reasoningTokens?: number;
  startedAt: number;
  /** Milliseconds spent waiting for the user (request_input), which no time limit counts. */
  pausedMs: number;
  now: number;
  actions: ActionRecord[];
  consecutiveErrors: number;
  /** The tree judged the goal reached (e.g. a model answer with no tool calls). */
  finished: boolean;
  cancelled: boolean;
  timedOut: boolean;
  inputTimedOut: boolean;
  llmError?: string;
  /** The operator's quota for the user ran out: what the user reads about it (agent/llm/metered-model.ts). */
  quotaReached?: string;
  /** Budget warnings already given this turn. */
  warned: BudgetKind[];
  /** Loop patterns already pointed out to the model this turn. */
  loopWarnings: string[];
  /** Subagents stopped before they finished: their unfinished work was not kept. */
  discardedSubagents: number;
  termination?: TerminationReason;
  /** A slot per workflow module; the core loop never reads it (FR-015). */
  extensions: Record<string, unknown>;
}

export function createState(config: AgentConfig, now = Date.now()): AgentState {
  return {
    config,
    step: 0,
    inputTokens: 0,
    outputTokens: 0,
    lastStepTokens: 0,
    startedAt: now,
    pausedMs: 0,
    now,
    actions: [],
    consecutiveErrors: 0,
    finished: false,
    cancelled: false,
    timedOut: false,
    inputTimedOut: false,
    warned: [],
    loopWarnings: [],
    discardedSubagents: 0,
    extensions: {},
  };
}

/**
 * What the token budget counts: every input token (cached ones too: they are sent, fill the context and
 * are billed, at a discount) plus every output token, of every model call the turn made.
 */
export const tokensUsed = (s: AgentState) => s.inputTokens + s.outputTokens;

/** Adds one model call's (or a subagent's) usage to the turn's. */
export function addUsage(s: AgentState, usage: ModelUsage): AgentState {
  const cached = addReported(s.cachedInputTokens, usage.cachedInputTokens);
  const reasoning = addReported(s.reasoningTokens, usage.reasoningTokens);
  return {
    ...s,
    inputTokens: s.inputTokens + usage.inputTokens,
    outputTokens: s.outputTokens + usage.outputTokens,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  };
}

/** A count only some providers report: undefined until one call reported it. */
const addReported = (sum: number | undefined, n: number | undefined) => (n === undefined ? sum : (sum ?? 0) + n);

/** The turn's usage as the wire carries it (response_complete, the final answer). */
export function usageOf(s: AgentState): Usage {
  return {
    input_tokens: s.inputTokens,
    output_tokens: s.outputTokens,
    total_tokens: tokensUsed(s),
    ...(s.cachedInputTokens !== undefined ? { cached_input_tokens: s.cachedInputTokens } : {}),
    ...(s.reasoningTokens !== undefined ? { reasoning_tokens: s.reasoningTokens } : {}),
  };
}
/** Time the turn has spent so far, waiting for the user excluded; `now` defaults to the state's clock. */
export const elapsedMs = (s: AgentState, now = s.now) => now - s.startedAt - s.pausedMs;

/** JSON with object keys sorted at every depth, so {a,b} and {b,a} are the same action. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A short fingerprint of a tool result (FNV-1a over its canonical JSON), kept instead of the result. */
export function resultKey(result: unknown): string {
  const text = canonicalJson(result);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

export function recordAction(s: AgentState, action: ActionRecord): AgentState {
  return {
    ...s,
    actions: [...s.actions, action],
    consecutiveErrors: action.ok ? 0 : s.consecutiveErrors + 1,
  };
}
