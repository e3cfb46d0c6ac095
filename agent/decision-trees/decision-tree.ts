// The DecisionTree protocol (seed 001 FR-012): how a workflow steers the loop without touching it.
// The loop asks the tree whether to go on, which model calls (phases) make up a step, and hands it
// every phase and tool result. Trees are pure: state in, state out.
import type { AgentConfig, Phase, TerminationReason } from "../../protocol";
import type { AgentState } from "../state";

export interface PhasePlan {
  /** Shown to the user: "reason" and "observe" are plain model calls; "act" may call tools. */
  phase: "reason" | "act" | "observe";
  tools: boolean;
  /** Instructions for this call only, appended after the history; never persisted. */
  instruction?: string;
}

export interface PhaseResult {
  plan: PhasePlan;
  text: string;
  toolCallCount: number;
}

export interface ToolResult {
  tool: string;
  args: unknown;
  ok: boolean;
  error?: string;
  /** What a successful call returned. */
  result?: unknown;
}

/** What the loop keeps of a phase, decided by the tree. */
export interface PhaseVerdict {
  state: AgentState;
  /** The text to show and keep for this phase (e.g. without its JSON control block). */
  display: string;
  phase?: Exclude<Phase, "final">;
  /** The final answer, when this phase reached the goal; persisted once, as the final message. */
  answer?: string;
}

export type Continuation = { continue: true } | { continue: false; reason: TerminationReason };

export interface DecisionTree {
  readonly name: string;
  readonly description: string;
  getConfig(base: AgentConfig): AgentConfig;
  shouldContinue(state: AgentState): Continuation;
  onTurnStart(state: AgentState): AgentState;
  phases(state: AgentState, tools: readonly string[]): PhasePlan[];
  onPhaseResult(state: AgentState, result: PhaseResult): PhaseVerdict;
  onToolResult(state: AgentState, result: ToolResult): AgentState;
}
