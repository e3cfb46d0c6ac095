// What the running turn is doing, derived from `agent_update` frames (seed 003): running or not, the
// step, the phase, and a pending request_input question. Pure, so the socket hook stays thin.
import {
  type AgentUpdate,
  type PendingApproval,
  type PendingElicitation,
  type TerminationReason,
  toolLabel,
} from "../../../protocol";

export type PendingInput = {
  question: string;
  step: number;
  timeout_s?: number;
  /** When the question times out (ISO): from the hello after a reload, or now + timeout_s when asked. */
  deadline?: string;
};

export type Turn = {
  running: boolean;
  step: number | null;
  maxSteps: number | null;
  /** The decision tree this turn runs ("default", "roa"): only "roa" has reason/observe phases. */
  tree: string | null;
  phase: "reason" | "act" | "observe" | null;
  stopping: boolean;
  /** The turn was cut short by a server restart and goes on from its last step: nothing new yet. */
  resuming: boolean;
  pendingInput: PendingInput | null;
  /** Calls waiting for the user's Approve or Deny, in the order they asked. */
  pendingApprovals: readonly PendingApproval[];
  /** Requests of MCP servers waiting for the user's answer (protocol/elicitation.ts). */
  pendingElicitations: readonly PendingElicitation[];
  lastOutcome: { termination_reason: TerminationReason; steps: number } | null;
};

export const IDLE_TURN: Turn = {
  running: false,
  step: null,
  maxSteps: null,
  tree: null,
  phase: null,
  stopping: false,
  resuming: false,
  pendingInput: null,
  pendingApprovals: [],
  pendingElicitations: [],
  lastOutcome: null,
};

export function applyAgentUpdate(turn: Turn, update: AgentUpdate): Turn {
  switch (update.update_type) {
    case "agent_start":
      return { ...IDLE_TURN, running: true, maxSteps: update.max_steps, tree: update.decision_tree };
    case "agent_turn_start":
      return { ...turn, running: true, step: update.step, phase: "reason" };
    case "agent_resumed":
      return { ...turn, running: true, resuming: true, step: update.step || null };
    case "agent_reason":
      return { ...turn, running: true, step: update.step, phase: "act" };
    case "agent_observe":
      return { ...turn, running: true, step: update.step, phase: "observe" };
    case "agent_request_input":
      return {
        ...turn,
        resuming: false,
        step: update.step,
        pendingInput: {
          question: update.question,
          step: update.step,
          timeout_s: update.timeout_s,
          deadline: new Date(Date.now() + update.timeout_s * 1000).toISOString(),
        },
      };
    case "agent_request_input_timeout":
      return { ...turn, pendingInput: null };
    case "agent_stopped":
      return { ...turn, stopping: true, pendingInput: null, pendingApprovals: [], pendingElicitations: [] };
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

export type Activity = {
  kind: "starting" | "resuming" | "thinking" | "reasoning" | "observing" | "writing" | "tool" | "waiting" | "stopping";
  label: string;
};

/** What each built-in tool does, as the working indicator says it (its name is in the tool card). */
const BUILT_IN_DOING: Record<string, string> = {
  vault_search: "Searching your notes",
  vault_read: "Reading a note",
  vault_list: "Looking through your notes",
  vault_write: "Writing a note",
  task_list: "Looking at your tasks",
  task_create: "Adding a task",
  task_update: "Updating a task",
  delegate: "Handing part of the work to a helper",
  web_search: "Searching the web",
  web_fetch: "Reading a web page",
};

/** A running tool in a sentence: "Searching your notes", or an MCP tool `local__echo` as "Using Echo on local". */
function toolPhrase(name: string): string {
  const known = BUILT_IN_DOING[name];
  if (known) return known;
  const { label, server } = toolLabel(name);
  return `Using ${server ? `${label} on ${server}` : label}`;
}

/**
 * What the running turn is doing now, in words, from its agent_update state and what is live: a tool
 * running, text streaming, a question waiting. Null when no turn runs. The default tree has no
 * reason/observe phases, so it never says "reasoning".
 */
export function turnActivity(turn: Turn, live: { writing: boolean; runningTools: readonly string[] }): Activity | null {
  if (!turn.running) return null;
  if (turn.stopping) return { kind: "stopping", label: "Stopping…" };
  if (turn.pendingInput) return { kind: "waiting", label: "Waiting for your answer" };
  if (turn.pendingApprovals.length) return { kind: "waiting", label: "Waiting for your approval" };
  if (turn.pendingElicitations.length) return { kind: "waiting", label: "Waiting for your answer" };
  if (live.runningTools.length) {
    const doing = [...new Set(live.runningTools.map(toolPhrase))];
    return { kind: "tool", label: `${doing.join(" · ")}…` };
  }
  if (live.writing) return { kind: "writing", label: "Writing…" };
  if (turn.resuming) return { kind: "resuming", label: "Resuming after a restart…" };
  if (turn.step === null) return { kind: "starting", label: "Starting…" };
  if (turn.tree === "roa" && turn.phase === "reason") return { kind: "reasoning", label: "Reasoning…" };
  if (turn.tree === "roa" && turn.phase === "observe") return { kind: "observing", label: "Looking at the results…" };
  return { kind: "thinking", label: "Thinking…" };
}
