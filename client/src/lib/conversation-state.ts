// The chat's client-side state as a pure reducer over validated server frames. Persisted messages live
// in a Map keyed by `seq`, so a message seen twice (resume after reconnect, several tabs) is shown once;
// streamed text and tool cards are live-only and give way to the persisted messages that replace them.
// A subagent's frames (`subagent_frame`) fold into a state of the same shape, keyed by the delegate
// call that started it, so nested subagents nest the same way and the run stays visible after the
// call's result arrives. The messages are every branch's (lib/branches.ts); `leafSeq` says which path
// the chat shows.
import {
  type ApprovalDecision,
  type ElicitationRecord,
  type Message,
  type ModelInfo,
  type ServerFrame,
  ServerFrameSchema,
} from "../../../protocol";
import { parentOf, pathTo } from "./branches";
import { applyAgentUpdate, completeTurn, IDLE_TURN, type Turn } from "./turn-state";

export type LiveTool = {
  call_id: string;
  tool: string;
  args: unknown;
  step: number;
  status: "running" | "success" | "error" | "timeout";
  /** The call waits for the user's approval (it has not started). */
  awaitingApproval?: boolean;
  /** How a call that waited for approval was decided. */
  approval?: ApprovalDecision;
  /** What an MCP server asked the user during the call (persisted calls only). */
  elicitations?: readonly ElicitationRecord[];
  result?: unknown;
  error?: string;
  duration_ms?: number;
};

export type Notice = { id: number; code: string; message: string };

/** What one delegate call's subagent has shown so far: its own conversation, reduced from its frames. */
export type SubagentRun = {
  call_id: string;
  conversation_id: string;
  pod_name: string;
  state: ConversationState;
};

/** A step's reasoning as it streams: its text, and when it began and ended (the step's first text or tool). */
export type LiveReasoning = { text: string; startedAt: number; endedAt?: number };

export type ConversationState = {
  messages: ReadonlyMap<number, Message>;
  liveText: ReadonlyMap<number, string>;
  /** What the model is thinking, per step, until the step's message (which keeps it) arrives. */
  liveReasoning: ReadonlyMap<number, LiveReasoning>;
  liveTools: ReadonlyMap<string, LiveTool>;
  /** Subagent runs seen live in this session, by the call_id of the delegate call that started them. */
  subagents: ReadonlyMap<string, SubagentRun>;
  turn: Turn;
  notice: Notice | null;
  /** The model as the last `hello` named it; its prices (when set) price the token meters. */
  model: ModelInfo | null;
  /** The last_seq the first `hello` announced (null before any hello): see historyLoaded. */
  helloSeq: number | null;
  /**
   * The last message of the path the chat shows (hello.leaf_seq, then each live message that follows
   * it, or branch_switched); null before any hello, when every message is read as one line.
   */
  leafSeq: number | null;
  /** The last_seq of the latest hello: messages up to it are history, not news that moves the leaf. */
  liveAfter: number;
};

export type ConversationAction =
  | { type: "frame"; frame: ServerFrame }
  | { type: "input_answered" }
  | { type: "notice"; code: string; message: string }
  | { type: "dismiss_notice" }
  | { type: "reset" };

export const INITIAL_STATE: ConversationState = {
  messages: new Map(),
  liveText: new Map(),
  liveReasoning: new Map(),
  liveTools: new Map(),
  subagents: new Map(),
  turn: IDLE_TURN,
  notice: null,
  model: null,
  helloSeq: null,
  leafSeq: null,
  liveAfter: 0,
};

function without<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const next = new Map(map);
  next.delete(key);
  return next;
}

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> {
  return new Map(map).set(key, value);
}

/**
 * A new message that follows the current leaf becomes it. History a resume replays (seq up to the
 * hello's last_seq) never does: on another branch, it may well follow the leaf too (a regenerate that
 * has not written yet leaves the leaf on the question whose old answers are below it).
 */
function nextLeaf(state: ConversationState, message: Message): number | null {
  if (state.leafSeq === null || message.seq <= state.liveAfter) return state.leafSeq;
  return parentOf(message) === state.leafSeq ? message.seq : state.leafSeq;
}

function addMessage(state: ConversationState, message: Message): ConversationState {
  if (state.messages.has(message.seq)) return state;
  state = { ...state, leafSeq: nextLeaf(state, message) };
  const messages = withEntry(state.messages, message.seq, message);
  if (message.role === "agent") {
    const { step } = message;
    const liveText = step === undefined ? new Map() : without(state.liveText, step);
    const liveReasoning = step === undefined ? new Map() : without(state.liveReasoning, step);
    return { ...state, messages, liveText, liveReasoning };
  }
  if (message.role === "tool") {
    // The call's result is in: whatever its subagent still showed as live is over.
    const run = state.subagents.get(message.call_id);
    const subagents = run ? withEntry(state.subagents, message.call_id, settleRun(run)) : state.subagents;
    return { ...state, messages, liveTools: without(state.liveTools, message.call_id), subagents };
  }
  return { ...state, messages };
}

/** A subagent run as it stands once its call is over: no live text or tools, not running, at any depth. */
function settleRun(run: SubagentRun): SubagentRun {
  const child = run.state;
  const idle = child.liveText.size === 0 && child.liveReasoning.size === 0 && child.liveTools.size === 0;
  if (!child.turn.running && idle && child.subagents.size === 0) return run;
  return {
    ...run,
    state: {
      ...child,
      liveText: new Map(),
      liveReasoning: new Map(),
      liveTools: new Map(),
      turn: { ...IDLE_TURN, lastOutcome: child.turn.lastOutcome },
      subagents: settleAll(child.subagents),
    },
  };
}

function settleAll(runs: ReadonlyMap<string, SubagentRun>): ReadonlyMap<string, SubagentRun> {
  return new Map([...runs].map(([callId, run]) => [callId, settleRun(run)]));
}

/** The step moved on from thinking (its first text or tool call): its reasoning's time stops. */
function endReasoning(map: ReadonlyMap<number, LiveReasoning>, step: number): ReadonlyMap<number, LiveReasoning> {
  const reasoning = map.get(step);
  if (!reasoning || reasoning.endedAt !== undefined) return map;
  return withEntry(map, step, { ...reasoning, endedAt: Date.now() });
}

function updateTool(state: ConversationState, callId: string, patch: Partial<LiveTool>): ConversationState {
  const tool = state.liveTools.get(callId);
  if (!tool) return state;
  return { ...state, liveTools: withEntry(state.liveTools, callId, { ...tool, ...patch }) };
}

function applyFrame(state: ConversationState, frame: ServerFrame): ConversationState {
  switch (frame.type) {
    case "hello": {
      // Deltas sent while we were away are lost, so partial live text would mislead; the persisted
      // messages come back through `resume`.
      const turn: Turn = frame.running
        ? {
            ...state.turn,
            running: true,
            resuming: frame.resuming ?? false,
            pendingInput: frame.pending_input ?? null,
            pendingApprovals: frame.pending_approvals ?? [],
            pendingElicitations: frame.pending_elicitations ?? [],
          }
        : { ...IDLE_TURN, lastOutcome: state.turn.lastOutcome };
      // With no turn running, no subagent of ours is either (their frames may have been missed).
      return {
        ...state,
        turn,
        liveText: new Map(),
        liveReasoning: new Map(),
        liveTools: frame.running ? state.liveTools : new Map(),
        subagents: frame.running ? state.subagents : settleAll(state.subagents),
        model: frame.model ?? state.model,
        helloSeq: state.helloSeq ?? frame.last_seq,
        // A server older than branches has one line: its leaf is its last message.
        leafSeq: frame.leaf_seq ?? frame.last_seq,
        liveAfter: frame.last_seq,
      };
    }
    case "branch_switched":
      return { ...state, leafSeq: frame.leaf_seq };
    case "message":
      return addMessage(state, frame.message);
    case "agent_update":
      return { ...state, turn: applyAgentUpdate(state.turn, frame) };
    case "reasoning_delta": {
      const was = state.liveReasoning.get(frame.step);
      const reasoning = { text: (was?.text ?? "") + frame.delta, startedAt: was?.startedAt ?? Date.now() };
      return {
        ...state,
        liveReasoning: withEntry(state.liveReasoning, frame.step, reasoning),
        turn: { ...state.turn, running: true, resuming: false },
      };
    }
    case "text_delta": {
      const text = (state.liveText.get(frame.step) ?? "") + frame.delta;
      return {
        ...state,
        liveText: withEntry(state.liveText, frame.step, text),
        liveReasoning: endReasoning(state.liveReasoning, frame.step),
        turn: { ...state.turn, running: true, resuming: false },
      };
    }
    case "tool_start": {
      const { call_id, tool, args, step } = frame;
      const live: LiveTool = { call_id, tool, args, step, status: "running" };
      return {
        ...state,
        liveTools: withEntry(state.liveTools, call_id, live),
        liveReasoning: endReasoning(state.liveReasoning, step),
        turn: { ...state.turn, resuming: false },
      };
    }
    case "tool_approval_request": {
      const { type: _, timeout_s: __, ...pending } = frame;
      const others = state.turn.pendingApprovals.filter((p) => p.call_id !== frame.call_id);
      return {
        ...updateTool(state, frame.call_id, { awaitingApproval: true }),
        turn: { ...state.turn, resuming: false, pendingApprovals: [...others, pending] },
      };
    }
    case "tool_approval_result": {
      const pendingApprovals = state.turn.pendingApprovals.filter((p) => p.call_id !== frame.call_id);
      return {
        ...updateTool(state, frame.call_id, { awaitingApproval: false, approval: frame.decision }),
        turn: { ...state.turn, pendingApprovals },
      };
    }
    case "elicitation_request": {
      const { type: _, timeout_s: __, ...pending } = frame;
      const others = state.turn.pendingElicitations.filter((p) => p.elicitation_id !== frame.elicitation_id);
      return { ...state, turn: { ...state.turn, resuming: false, pendingElicitations: [...others, pending] } };
    }
    case "elicitation_result": {
      const pendingElicitations = state.turn.pendingElicitations.filter(
        (p) => p.elicitation_id !== frame.elicitation_id,
      );
      return { ...state, turn: { ...state.turn, pendingElicitations } };
    }
    case "tool_complete":
      return updateTool(state, frame.call_id, {
        status: "success",
        result: frame.result,
        duration_ms: frame.duration_ms,
      });
    case "tool_error":
      return updateTool(state, frame.call_id, {
        status: frame.error_type === "timeout" ? "timeout" : "error",
        error: frame.error,
      });
    case "response_complete":
      return {
        ...state,
        liveText: new Map(),
        liveReasoning: new Map(),
        liveTools: new Map(),
        subagents: settleAll(state.subagents),
        turn: completeTurn({ termination_reason: frame.termination_reason, steps: frame.steps }),
      };
    case "error":
      return {
        ...state,
        notice: { id: (state.notice?.id ?? 0) + 1, code: frame.code, message: frame.message },
      };
    case "subagent_frame":
      return applySubagentFrame(state, frame);
    case "pong":
    case "chat_duplicate": // the outbox's (use-conversation-socket.ts)
    case "conversation_title": // the sidebar's (use-conversation-socket.ts hands it there)
      return state;
  }
}

function applySubagentFrame(
  state: ConversationState,
  frame: Extract<ServerFrame, { type: "subagent_frame" }>,
): ConversationState {
  const inner = ServerFrameSchema.safeParse(frame.frame);
  if (!inner.success) return state;
  const run: SubagentRun = state.subagents.get(frame.call_id) ?? {
    call_id: frame.call_id,
    conversation_id: frame.conversation_id,
    pod_name: frame.pod_name,
    state: INITIAL_STATE,
  };
  // A subagent's socket errors are not ours to show as a toast.
  if (inner.data.type === "error") return state;
  const child = applyFrame(run.state, inner.data);
  if (child === run.state && state.subagents.has(frame.call_id)) return state;
  return { ...state, subagents: withEntry(state.subagents, frame.call_id, { ...run, state: child }) };
}

/** Whether a subagent's own turn is still going (its last frame was not `response_complete`). */
export function subagentRunning(run: SubagentRun): boolean {
  const live = run.state;
  return live.turn.running || live.liveTools.size > 0 || live.liveText.size > 0 || live.liveReasoning.size > 0;
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case "frame":
      return applyFrame(state, action.frame);
    case "input_answered":
      return { ...state, turn: { ...state.turn, pendingInput: null } };
    case "notice":
      return {
        ...state,
        notice: { id: (state.notice?.id ?? 0) + 1, code: action.code, message: action.message },
      };
    case "dismiss_notice":
      return { ...state, notice: null };
    case "reset":
      return INITIAL_STATE;
  }
}

/**
 * The history up to the first `hello`'s last_seq is in (messages only accumulate until a reset): before
 * that, an empty list means "loading", not "empty".
 */
export function historyLoaded(state: ConversationState): boolean {
  if (state.helloSeq === null) return false;
  for (const seq of state.messages.keys()) if (seq >= state.helloSeq) return true;
  return state.helloSeq === 0;
}

/** Persisted messages in `seq` order (every branch's). */
export function orderedMessages(state: ConversationState): Message[] {
  return [...state.messages.values()].sort((a, b) => a.seq - b.seq);
}

/** The messages the chat shows: the path that ends at the current leaf (all of them before a hello). */
export function pathMessages(state: ConversationState): Message[] {
  return state.leafSeq === null ? orderedMessages(state) : pathTo(state.messages, state.leafSeq);
}
