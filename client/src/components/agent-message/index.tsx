// The agent's persisted text: a left bubble with its loop phase (Reason / Observe / Answer, seed 003),
// its step, and why the turn stopped when it did not simply complete. A turn's final answer carries what
// the turn used, shown as a token meter under the bubble.
import type { AgentMessage as Message, Phase, Prices } from "../../../../protocol";
import { terminationText } from "../../lib/termination";
import { metered } from "../../lib/token-usage";
import { Markdown } from "../markdown";
import { ActionButton, MessageActions } from "../message-actions";
import { TokenMeter } from "../token-meter";
import side from "./side.module.css";
import style from "./style.module.css";

const PHASE_LABELS: Record<Phase, string> = { reason: "Reason", observe: "Observe", final: "Answer" };

type Props = {
  message: Message;
  prices?: Prices;
  /** Set on the last answer while a new turn may start: asks the same question again. */
  onRegenerate?: () => void;
  /** Intermediate step texts inside a turn group: no action row. */
  compact?: boolean;
};

export function AgentMessage({ message, prices, onRegenerate, compact }: Props) {
  const stopped = message.termination_reason && message.termination_reason !== "completed";
  return (
    <div class={side.wrap}>
      <article class={side.row} data-role="agent" data-seq={message.seq} data-phase={message.phase}>
        <div class={`${side.bubble} ${style.bubble} ${message.phase ? style[message.phase] : ""}`}>
          {(message.phase || message.step !== undefined) && (
            <div class={style.meta}>
              {message.phase && <span class={style.phase}>{PHASE_LABELS[message.phase]}</span>}
              {message.step !== undefined && <span class={style.step}>Step {message.step}</span>}
            </div>
          )}
          <Markdown text={message.content} />
          {stopped && (
            <div class={style.stopped} data-testid="termination-note" data-reason={message.termination_reason}>
              {message.termination_reason && terminationText(message.termination_reason, message.step)}
            </div>
          )}
        </div>
        {message.usage && <TokenMeter metered={metered(message.usage, prices)} scope="turn" class={side.meter} />}
      </article>
      {!compact && (
        <MessageActions createdAt={message.created_at} copyText={message.content}>
          {onRegenerate && (
            <ActionButton onClick={onRegenerate} testid="regenerate" label="Regenerate this answer">
              Regenerate
            </ActionButton>
          )}
        </MessageActions>
      )}
    </div>
  );
}
