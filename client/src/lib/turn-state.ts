// What the running turn is doing, derived from `agent_update` frames (seed 003): running or not, the
// step, the phase, and a pending request_input question. Pure, so the socket hook stays thin.
import type { AgentUpdate, TerminationReason } from "../../../protocol";

export type PendingInput = { question: string; step: number; timeout_s?: number };

export type Turn = {
  running: boolean;
  step: number | null;
  maxSteps: number | null;
  phase: "reason" | "act" | "observe" | null;
  stopping: boolean;
  pendingInput: PendingInput | null;
  lastOutcome: { termination_reason: TerminationReason; steps: number } | null;
};

export const IDLE_TURN: Turn = {
  running: false,
  step: null,
  maxSteps: null,
  phase: null,
  stopping: false,
  pendingInput: null,
  lastOutcome: null,
};

export function applyAgentUpdate(turn: Turn, update: AgentUpdate): Turn {
  switch (update.update_type) {
    case "agent_start":
      return { ...IDLE_TURN, running: true, maxSteps: update.max_steps };
    case "agent_turn_start":
      return { ...turn, running: true, step: update.step, phase: "reason" };
    case "agent_reason":
      return { ...turn, running: true, step: update.step, phase: "act" };
    case "agent_observe":
      return { ...turn, running: true, step: update.step, phase: "observe" };
    case "agent_request_input":
      return {
        ...turn,
        step: update.step,
        pendingInput: { question: update.question, step: update.step, timeout_s: update.timeout_s },
      };
    case "agent_request_input_timeout":
      return { ...turn, pendingInput: null };
    case "agent_stopped":
      return { ...turn, stopping: true, pendingInput: null };
    case "agent_completion":
      return {
        ...turn,
        pendingInput: null,
        lastOutcome: { termination_reason: update.termination_reason, steps: update.steps },
      };
  }
}

/** `response_complete` is the last frame of every turn, whatever ended it. */
export function completeTurn(outcome: { termination_reason: TerminationReason; steps: number }): Turn {
  return { ...IDLE_TURN, lastOutcome: outcome };
}
