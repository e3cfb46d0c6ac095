// The agent's persisted text: a left bubble with its loop phase (Reason / Observe / Answer, seed 003),
// its step, and why the turn stopped when it did not simply complete. A turn's final answer carries what
// the turn used, shown as a token meter under the bubble.
import type { AgentMessage as Message, Phase, Prices } from "../../../../protocol";
import { metered } from "../../lib/token-usage";
import { Markdown } from "../markdown";
import { TokenMeter } from "../token-meter";
import style from "./style.module.css";

const PHASE_LABELS: Record<Phase, string> = { reason: "Reason", observe: "Observe", final: "Answer" };

export function AgentMessage({ message, prices }: { message: Message; prices?: Prices }) {
  const stopped = message.termination_reason && message.termination_reason !== "completed";
  return (
    <article class={style.row} data-role="agent" data-seq={message.seq} data-phase={message.phase}>
      <div class={`${style.bubble} ${message.phase ? style[message.phase] : ""}`}>
        {(message.phase || message.step !== undefined) && (
          <div class={style.meta}>
            {message.phase && <span class={style.phase}>{PHASE_LABELS[message.phase]}</span>}
            {message.step !== undefined && <span class={style.step}>Step {message.step}</span>}
          </div>
        )}
        <Markdown text={message.content} />
        {stopped && (
          <div class={style.stopped} data-testid="termination-note">
            Stopped: {message.termination_reason}
          </div>
        )}
      </div>
      {message.usage && <TokenMeter metered={metered(message.usage, prices)} scope="turn" class={style.meter} />}
    </article>
  );
}
