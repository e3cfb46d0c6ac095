// A small dot and word for the socket's state, so a silent chat is not mistaken for a dead one.
import type { ConnectionStatus as Status } from "../../lib/use-conversation-socket";
import style from "./style.module.css";

const LABELS: Record<Status, string> = {
  connecting: "connecting…",
  connected: "connected",
  reconnecting: "reconnecting…",
};

export function ConnectionStatus({ status }: { status: Status }) {
  return (
    <span class={`${style.status} ${style[status]}`} data-testid="connection-status" data-status={status}>
      <span class={style.dot} aria-hidden="true" />
      {LABELS[status]}
    </span>
  );
}
