// The live link to one conversation's Durable Object. Opens the socket, resumes from the highest seq it
// holds on every `hello` (first load included: after_seq 0 replays the whole history), reconnects with
// backoff after a drop, pings every 25 s, and folds every validated frame into conversationReducer.
import { useCallback, useEffect, useReducer, useRef, useState } from "preact/hooks";
import { type ClientFrame, type ServerFrame, ServerFrameSchema } from "../../../protocol";
import { REVOKED_CLOSE_CODE } from "../../../protocol/socket-close";
import { signalUnauthorized } from "./api";
import { announceTitle } from "./conversation-groups";
import { conversationReducer, INITIAL_STATE } from "./conversation-state";
import { notifyOn } from "./notify-on";
import { takeQueuedMessage } from "./outbox";
import { reconnectDelay } from "./reconnect-backoff";

export type ConnectionStatus = "connecting" | "connected" | "reconnecting";

/** Why the socket is down and when it tries again, for the reconnect banner. */
export type ConnectionProblem = {
  /** Reconnect attempts so far since the last good connection. */
  attempt: number;
  /** The close reason in plain words ("the connection dropped", "you are offline"). */
  reason: string;
  /** Epoch ms of the next attempt. */
  retryAt: number;
};

function closeReason(event: CloseEvent): string {
  if (!navigator.onLine) return "you are offline";
  if (event.reason) return `the server closed the connection (${event.reason})`;
  if (event.code === 1006) return "the connection dropped";
  return `the connection closed (code ${event.code})`;
}

const PING_INTERVAL_MS = 25_000;
/** Deltas wait at most this long for a paint (a hidden tab paints none). */
const DELTA_WAIT_MS = 100;

function socketUrl(conversationId: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/conversations/${encodeURIComponent(conversationId)}/ws`;
}

function parseFrame(data: unknown) {
  if (typeof data !== "string") return null;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    console.warn("Ignoring a socket frame that is not JSON");
    return null;
  }
  const parsed = ServerFrameSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  console.warn("Ignoring an invalid socket frame", parsed.error.issues);
  return null;
}

export function useConversationSocket(conversationId: string) {
  const [state, dispatch] = useReducer(conversationReducer, INITIAL_STATE);
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [problem, setProblem] = useState<ConnectionProblem | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const retryNowRef = useRef<() => void>(() => {});
  // Kept outside the reducer because the socket handlers need it synchronously for `resume`.
  const highestSeq = useRef(0);

  useEffect(() => {
    dispatch({ type: "reset" });
    highestSeq.current = 0;
    setStatus("connecting");
    setProblem(null);
    let disposed = false;
    let greeted = false;
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let pingTimer: ReturnType<typeof setInterval> | undefined;

    // Streamed deltas come dozens a second: they are gathered and folded in together before the next
    // paint (one render for all of them), so a slow device draws the answer as fast as it can instead
    // of falling behind the stream. Any other frame goes in at once, after the deltas before it.
    const deltas: ServerFrame[] = [];
    let paint = 0;
    let fallback: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      cancelAnimationFrame(paint);
      clearTimeout(fallback);
      fallback = undefined;
      if (disposed) return;
      // One render for all of them: dispatches in one task are rendered together.
      for (const frame of deltas.splice(0)) dispatch({ type: "frame", frame });
    };
    const take = (frame: ServerFrame) => {
      if (frame.type === "text_delta" || frame.type === "reasoning_delta") {
        deltas.push(frame);
        if (fallback === undefined) {
          paint = requestAnimationFrame(flush);
          fallback = setTimeout(flush, DELTA_WAIT_MS);
        }
        return;
      }
      flush();
      dispatch({ type: "frame", frame });
    };

    const connect = () => {
      const socket = new WebSocket(socketUrl(conversationId));
      socketRef.current = socket;
      socket.onopen = () => {
        pingTimer = setInterval(
          () => socket.send(JSON.stringify({ type: "ping" } satisfies ClientFrame)),
          PING_INTERVAL_MS,
        );
      };
      socket.onmessage = (event) => {
        if (disposed) return;
        const frame = parseFrame(event.data);
        if (!frame) return;
        if (frame.type === "hello") {
          // Connected means greeted by the conversation, not merely an open socket.
          attempt = 0;
          setStatus("connected");
          setProblem(null);
          // Always resume, even when last_seq looks equal: it is idempotent (messages are keyed by
          // seq) and it is what puts the socket back on the live stream.
          // `tree`: every branch's messages, so switching versions needs no fetch (lib/branches.ts).
          const resume = { type: "resume", after_seq: highestSeq.current, tree: true } satisfies ClientFrame;
          socket.send(JSON.stringify(resume));
          // The home page's first message, queued while the conversation was being created: sent
          // once, on this chat's first connection.
          if (!greeted) {
            greeted = true;
            const queued = takeQueuedMessage(conversationId);
            if (queued) socket.send(JSON.stringify({ type: "chat", content: queued } satisfies ClientFrame));
          }
        }
        // The model named the conversation: the sidebar takes it (use-conversations.ts), not the chat.
        if (frame.type === "conversation_title") return announceTitle(frame.conversation_id, frame.title);
        if (frame.type === "message") highestSeq.current = Math.max(highestSeq.current, frame.message.seq);
        // A turn ended out of sight: the user is told, where they asked to be (the rest loads only then).
        if (frame.type === "response_complete" && document.hidden && notifyOn())
          import("./finish-notice")
            .then((m) => m.noticeTurnEnded(conversationId, frame.termination_reason, highestSeq.current))
            .catch((error: unknown) => console.warn("No notification", error));
        take(frame);
      };
      socket.onclose = (event) => {
        clearInterval(pingTimer);
        if (disposed || socketRef.current !== socket) return;
        socketRef.current = null;
        // Signed out elsewhere (logout, a deleted token): reconnecting would only be refused.
        if (event.code === REVOKED_CLOSE_CODE) return signalUnauthorized();
        setStatus("reconnecting");
        const delay = reconnectDelay(attempt++);
        setProblem({ attempt, reason: closeReason(event), retryAt: Date.now() + delay });
        retryTimer = setTimeout(connect, delay);
      };
    };

    // Coming back online should not wait out a long backoff.
    const reconnectNow = () => {
      if (socketRef.current || disposed) return;
      clearTimeout(retryTimer);
      connect();
    };

    retryNowRef.current = reconnectNow;
    connect();
    window.addEventListener("online", reconnectNow);
    return () => {
      disposed = true;
      flush();
      window.removeEventListener("online", reconnectNow);
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      socketRef.current?.close(1000, "leaving conversation");
      socketRef.current = null;
    };
  }, [conversationId]);

  /** Sends a frame if the socket is open; otherwise says so in the toast and returns false. */
  const send = useCallback((frame: ClientFrame): boolean => {
    const socket = socketRef.current;
    if (socket?.readyState !== WebSocket.OPEN) {
      dispatch({ type: "notice", code: "offline", message: "Not connected yet: try again in a moment." });
      return false;
    }
    socket.send(JSON.stringify(frame));
    return true;
  }, []);

  const answerInput = useCallback(
    (content: string) => {
      if (send({ type: "agent_user_input", content })) dispatch({ type: "input_answered" });
    },
    [send],
  );

  const dismissNotice = useCallback(() => dispatch({ type: "dismiss_notice" }), []);

  /** Reconnects at once instead of waiting out the backoff. */
  const retryNow = useCallback(() => retryNowRef.current(), []);

  return { state, status, problem, send, answerInput, dismissNotice, retryNow };
}
