// A persisted system message (seed 000 FR-022…024): what the system told the agent, shown apart from
// user and agent turns (its own card, a "System" label, the source, a severity color). Read-only by
// design: it records what happened, so it has no reply or edit actions.
import type { SystemMessage as Message, Severity } from "../../../../protocol";
import { MessageActions } from "../message-actions";
import { SystemItemBody } from "../system-item-body";
import style from "./style.module.css";

const SEVERITY_ICONS: Record<Severity, string> = {
  debug: "·",
  info: "ℹ",
  warning: "⚠",
  error: "✖",
  critical: "‼",
};

export function SystemMessage({ message, compact }: { message: Message; compact?: boolean }) {
  const { item } = message;
  const priority = item.kind === "notification" && item.priority !== "normal" ? item.priority : null;
  const copyText = item.kind === "notification" ? `${item.message}\n\n${item.body}` : item.body;
  return (
    <div class={style.wrap}>
      <article
        class={`${style.card} ${style[message.severity]}`}
        data-role="system"
        data-seq={message.seq}
        data-kind={item.kind}
        data-severity={message.severity}
        data-source={message.source}
        aria-label={`System message from ${message.source} (${message.severity})`}
      >
        <header class={style.header}>
          <span class={style.icon} aria-hidden="true">
            {SEVERITY_ICONS[message.severity]}
          </span>
          <span class={style.label}>System</span>
          <span class={style.source} data-testid="system-source">
            {message.source}
          </span>
          {priority && <span class={style.tag}>{priority}</span>}
          <span class={style.severity} data-testid="system-severity">
            {message.severity}
          </span>
        </header>
        <div class={style.body}>
          <SystemItemBody item={item} />
        </div>
      </article>
      {!compact && <MessageActions createdAt={message.created_at} copyText={copyText} />}
    </div>
  );
}
