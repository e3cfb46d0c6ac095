// The socket's state: a small dot and word in the chat's header only when the connection is not fine
// (connecting, reconnecting; the element stays, hidden, while connected). The banner while it is down
// and the messages waiting for it are in offline.tsx, loaded as the chat opens.
import type { ConnectionStatus as Status } from "../../lib/use-conversation-socket";
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
