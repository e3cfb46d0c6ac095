// The socket's state: a small dot and word in the chat's header only when the connection is not fine
// (connecting, reconnecting; the element stays, hidden, while connected), and, while it is down, a
// banner over the composer that says so plainly (why, which attempt, when the next one is), that one
// can still type but not send, and offers "Retry now".
import { useEffect, useState } from "preact/hooks";
import type { ConnectionProblem, ConnectionStatus as Status } from "../../lib/use-conversation-socket";
import style from "./style.module.css";

const LABELS: Record<Status, string> = {
  connecting: "connecting…",
  connected: "connected",
  reconnecting: "reconnecting…",
};

export function ConnectionStatus({ status }: { status: Status }) {
  return (
    <span
      class={`${style.status} ${style[status]}`}
      hidden={status === "connected"}
      data-testid="connection-status"
      data-status={status}
    >
      <span class={style.dot} aria-hidden="true" />
      {LABELS[status]}
    </span>
  );
}

function useSecondsUntil(epochMs: number | undefined): number | null {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (epochMs === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [epochMs]);
  return epochMs === undefined ? null : Math.max(0, Math.ceil((epochMs - now) / 1000));
}

export function ReconnectBanner({ problem, onRetry }: { problem: ConnectionProblem; onRetry: () => void }) {
  const seconds = useSecondsUntil(problem.retryAt);
  return (
    <div class={style.banner} role="status" data-testid="reconnect-banner">
      <div class={style.text}>
        <strong>Reconnecting…</strong> you can type; Send is disabled until the connection is back.
        <div class={style.detail} data-testid="reconnect-reason">
          Disconnected: {problem.reason} · attempt {problem.attempt}
          {seconds ? ` · next try in ${seconds} s` : " · trying now"}
        </div>
      </div>
      <button type="button" class={style.retry} onClick={onRetry} data-testid="reconnect-now">
        Retry now
      </button>
    </div>
  );
}
