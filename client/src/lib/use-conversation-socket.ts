// The live link to one conversation's Durable Object. Opens the socket, resumes from the highest seq it
// holds on every `hello` (first load included: after_seq 0 replays the whole history), reconnects with
// backoff after a drop (at once when the browser says it went offline), pings every 25 s, and folds every
// validated frame into conversationReducer. The user's messages go through the conversation's outbox
// (lib/outbox.ts): each is sent when the socket is greeted and no turn runs, one at a time, again after
// a drop or a reload, until its user message comes back (the server never starts one twice).
import { useCallback, useEffect, useReducer, useRef, useState } from "preact/hooks";
import { type ClientFrame, type ServerFrame, ServerFrameSchema } from "../../../protocol";
import { REVOKED_CLOSE_CODE } from "../../../protocol/socket-close";
import { signalUnauthorized } from "./api";
import { announceTitle } from "./conversation-groups";
import { conversationReducer, INITIAL_STATE } from "./conversation-state";
import { notifyOn } from "./notify-on";
import { openOutbox } from "./outbox";
import { reconnectDelay } from "./reconnect-backoff";

export type ConnectionStatus = "connecting" | "connected" | "reconnecting";

/** Why the socket is down and when it tries again, for the reconnect banner (which words it). */
export type ConnectionProblem = {
  /** Reconnect attempts so far since the last good connection. */
  attempt: number;
  /** How the socket closed, and whether the browser was offline then. */
  code: number;
  reason: string;
  offline: boolean;
  /** Epoch ms of the next attempt. */
  retryAt: number;
};

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
  const [, changed] = useState(0);
  const [outbox] = useState(() => openOutbox(conversationId, () => changed((n) => n + 1)));
  // Kept outside the reducer because the socket handlers need it synchronously for `resume`.
  const highestSeq = useRef(0);

  useEffect(() => {
    dispatch({ type: "reset" });
    highestSeq.current = 0;
    setStatus("connecting");
    setProblem(null);
    let disposed = false;
    let attempt = 0;
    // The outbox's message on its way (sent, not yet confirmed or refused), on a greeted socket.
    let greeted = false;
    let sending: string | undefined;
    outbox.flush = () => {
      const next = outbox.next();
      if (!greeted || sending || !next) return;
      sending = next.client_id;
      socketRef.current?.send(JSON.stringify(next));
    };
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
          greeted = true;
        }
        // The model named the conversation: the sidebar takes it (use-conversations.ts), not the chat.
        if (frame.type === "conversation_title") return announceTitle(frame.conversation_id, frame.title);
        if (frame.type === "message") highestSeq.current = Math.max(highestSeq.current, frame.message.seq);
        // A message of the outbox is in: its own user message came back, or it was in already.
        const arrived =
          frame.type === "chat_duplicate"
            ? frame.client_id
            : frame.type === "message" && frame.message.role === "user" && frame.message.client_id;
        if (arrived) {
          if (arrived === sending) sending = undefined;
          outbox.remove(arrived);
        }
        // Refused while a turn runs, it goes when that turn ends; refused otherwise, on Retry only.
        if (frame.type === "error" && frame.client_id && frame.client_id === sending) {
          sending = undefined;
          if (frame.code === "busy") return;
          outbox.refused.add(frame.client_id);
        }
        // A turn ended out of sight: the user is told, where they asked to be (the rest loads only then).
        if (frame.type === "response_complete" && document.hidden && notifyOn())
          import("./finish-notice")
            .then((m) => m.noticeTurnEnded(conversationId, frame.termination_reason, highestSeq.current))
            .catch((error: unknown) => console.warn("No notification", error));
        take(frame);
        if (frame.type === "hello" || frame.type === "response_complete" || frame.type === "chat_duplicate")
          outbox.flush();
      };
      socket.onclose = (event) => {
        if (disposed || socketRef.current !== socket) return;
        clearInterval(pingTimer);
        socketRef.current = null;
        greeted = false;
        sending = undefined;
        // Signed out elsewhere (logout, a deleted token): reconnecting would only be refused.
        if (event.code === REVOKED_CLOSE_CODE) return signalUnauthorized();
        setStatus("reconnecting");
        const delay = reconnectDelay(attempt++);
        const { code, reason } = event;
        setProblem({ attempt, code, reason, offline: !navigator.onLine, retryAt: Date.now() + delay });
        retryTimer = setTimeout(connect, delay);
      };
    };

    // Coming back online should not wait out a long backoff.
    const reconnectNow = () => {
      if (socketRef.current || disposed) return;
      clearTimeout(retryTimer);
      connect();
    };

    // The browser knows the network is gone before a socket does (a dead one can seem open for minutes):
    // it is given up now, so the banner says so and nothing more is sent into it.
    const wentOffline = () => {
      const socket = socketRef.current;
      socket?.onclose?.(new CloseEvent("close"));
      socket?.close();
    };

    retryNowRef.current = reconnectNow;
    connect();
    window.addEventListener("online", reconnectNow);
    window.addEventListener("offline", wentOffline);
    return () => {
      disposed = true;
      flush();
      window.removeEventListener("online", reconnectNow);
      window.removeEventListener("offline", wentOffline);
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

  return { state, status, problem, send, answerInput, dismissNotice, retryNow, outbox };
}
