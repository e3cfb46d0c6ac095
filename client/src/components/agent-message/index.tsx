// The agent's persisted text: a left bubble with the answer and, when the turn did not simply complete,
// one note on how it ended. Inside a turn's folded steps a step text also says its loop phase (Reason /
// Observe / Answer, seed 003) and its step. What is for the curious (the step, how the turn ended in
// the agent's terms, the model that wrote it, the tokens the turn used) sits behind the answer's Details
// button. What the model thought before it wrote (reasoning) is folded above the text. An answer that
// used the web links its `[n]` citations to its sources and lists them under its text (components/web/).
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { AgentMessage as Message, Phase, Prices } from "../../../../protocol";
import { modelWords } from "../../lib/model-words";
import { plural } from "../../lib/plural";
import { answerParts, terminationText } from "../../lib/termination";
import { answerPrices, metered } from "../../lib/token-usage";
import { Markdown } from "../markdown";
import { ActionButton, MessageActions } from "../message-actions";
import { ReasoningBlock } from "../reasoning-block";
import { lazyPart } from "../shell/lazy";
import { TokenMeter } from "../token-meter";
import { canReadAloud, Voice } from "../voice/lazy";
import side from "./side.module.css";
import style from "./style.module.css";

// An answer's Sources (components/web/), loaded with the first answer that has them.
const Sources = lazyPart(() => import("../web").then((m) => m.Sources));

const PHASE_LABELS: Record<Phase, string> = { reason: "Reason", observe: "Observe", final: "Answer" };

type Props = {
  message: Message;
  prices?: Prices;
  /** Runs this answer's turn again as a new version. Absent: no Regenerate (read-only, a step text). */
  onRegenerate?: () => void;
  /** Why Regenerate cannot be used now (a turn is running…): disabled with this tooltip. */
  blocked?: string | null;
  /** ‹ n/m › when this answer's turn has versions. */
  switcher?: ComponentChildren;
  /** Intermediate step texts inside a turn group: labelled with phase and step, no action row. */
  compact?: boolean;
};

/**
 * What an answer's Details button opens: the model, how the turn ended and in how many steps (in words;
 * the codes, phase and reason, only in the line's tooltip and data attributes), what it used.
 */
export function AnswerDetails({ message, prices }: { message: Message; prices?: Prices }) {
  const { step, phase, termination_reason: reason } = message;
  const facts = [reason ? terminationText(reason) : null, step !== undefined ? plural(step, "step") : null].filter(
    Boolean,
  );
  const codes = [phase && `phase ${phase}`, reason && `ended: ${reason}`].filter(Boolean).join(" · ");
  return (
    <div class={`${side.meter} ${style.details}`} data-testid="message-details">
      {message.model && (
        <p class={style.facts} data-testid="message-model">
          Written by {modelWords(message.model)}
        </p>
      )}
      {facts.length > 0 && (
        <p class={style.facts} title={codes || undefined} data-phase={phase} data-reason={reason}>
          {facts.join(" · ")}
        </p>
      )}
      {message.usage && <TokenMeter metered={metered(message.usage, answerPrices(message, prices))} scope="turn" />}
    </div>
  );
}

export function AgentMessage({ message, prices, onRegenerate, blocked, switcher, compact }: Props) {
  const [details, setDetails] = useState(false);
  const { body, note } = answerParts(message.content, message.termination_reason, message.note);
  const { reasoning } = message;
  const thought = reasoning?.text ? (
    <ReasoningBlock text={reasoning.text} durationMs={reasoning.duration_ms} id={String(message.seq)} />
  ) : null;
  // A step that only called tools keeps its reasoning on a message without text: the reasoning alone.
  if (!body && !note && compact) return thought && <div class={side.wrap}>{thought}</div>;
  return (
    <div class={side.wrap}>
      {thought}
      <article class={side.row} data-role="agent" data-seq={message.seq} data-phase={message.phase}>
        <div class={`${side.bubble} ${style.bubble} ${message.phase ? style[message.phase] : ""}`}>
          {compact && (message.phase || message.step !== undefined) && (
            <div class={style.meta}>
              {message.phase && <span class={style.phase}>{PHASE_LABELS[message.phase]}</span>}
              {message.step !== undefined && <span class={style.step}>Step {message.step}</span>}
            </div>
          )}
          {body && <Markdown text={body} sources={message.sources} />}
          {message.sources?.length ? <Sources sources={message.sources} /> : null}
          {note && (
            <div class={style.stopped} data-testid="termination-note" data-reason={message.termination_reason}>
              {note}
            </div>
          )}
        </div>
        {details && <AnswerDetails message={message} prices={prices} />}
      </article>
      {!compact && (
        <MessageActions createdAt={message.created_at} copyText={message.content}>
          {switcher}
          {body && canReadAloud() && <Voice kind="read-aloud" text={body} />}
          {onRegenerate && (
            <ActionButton
              onClick={onRegenerate}
              disabled={!!blocked}
              title={blocked ?? undefined}
              testid="regenerate"
              label="Regenerate this answer as a new version"
              icon="refresh"
            >
              Regenerate
            </ActionButton>
          )}
          <ActionButton
            onClick={() => setDetails(!details)}
            testid="message-details-toggle"
            expanded={details}
            icon="info"
          >
            Details
          </ActionButton>
        </MessageActions>
      )}
    </div>
  );
}
