// The chat's client-side state as a pure reducer over validated server frames. Persisted messages live
// in a Map keyed by `seq`, so a message seen twice (resume after reconnect, several tabs) is shown once;
// streamed text and tool cards are live-only and give way to the persisted messages that replace them.
import type { Message, ServerFrame } from "../../../protocol";
import { applyAgentUpdate, completeTurn, IDLE_TURN, type Turn } from "./turn-state";

export type LiveTool = {
  call_id: string;
  tool: string;
  args: unknown;
  step: number;
  status: "running" | "success" | "error" | "timeout";
  result?: unknown;
  error?: string;
  duration_ms?: number;
};

export type Notice = { id: number; code: string; message: string };

export type ConversationState = {
  messages: ReadonlyMap<number, Message>;
  liveText: ReadonlyMap<number, string>;
  liveTools: ReadonlyMap<string, LiveTool>;
  turn: Turn;
  notice: Notice | null;
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
  liveTools: new Map(),
  turn: IDLE_TURN,
  notice: null,
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

function addMessage(state: ConversationState, message: Message): ConversationState {
  if (state.messages.has(message.seq)) return state;
  const messages = withEntry(state.messages, message.seq, message);
  if (message.role === "agent") {
    const liveText = message.step === undefined ? new Map() : without(state.liveText, message.step);
    return { ...state, messages, liveText };
  }
  if (message.role === "tool") return { ...state, messages, liveTools: without(state.liveTools, message.call_id) };
  return { ...state, messages };
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
        ? { ...state.turn, running: true, pendingInput: frame.pending_input ?? null }
        : { ...IDLE_TURN, lastOutcome: state.turn.lastOutcome };
      return { ...state, turn, liveText: new Map(), liveTools: frame.running ? state.liveTools : new Map() };
    }
    case "message":
      return addMessage(state, frame.message);
    case "agent_update":
      return { ...state, turn: applyAgentUpdate(state.turn, frame) };
    case "text_delta": {
      const text = (state.liveText.get(frame.step) ?? "") + frame.delta;
      return {
        ...state,
        liveText: withEntry(state.liveText, frame.step, text),
        turn: { ...state.turn, running: true },
      };
    }
    case "tool_start": {
      const { call_id, tool, args, step } = frame;
      const live: LiveTool = { call_id, tool, args, step, status: "running" };
      return { ...state, liveTools: withEntry(state.liveTools, call_id, live) };
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
        liveTools: new Map(),
        turn: completeTurn({ termination_reason: frame.termination_reason, steps: frame.steps }),
      };
    case "error":
      return {
        ...state,
        notice: { id: (state.notice?.id ?? 0) + 1, code: frame.code, message: frame.message },
      };
    case "pong":
    // Subagent progress is drawn under its delegate card (issue 6); until then it changes nothing here.
    case "subagent_frame":
      return state;
  }
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

/** Persisted messages in `seq` order. */
export function orderedMessages(state: ConversationState): Message[] {
  return [...state.messages.values()].sort((a, b) => a.seq - b.seq);
}
