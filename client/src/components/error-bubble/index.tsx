// A turn that failed (the model could not be reached, too many tool errors): not an answer but an
// error, said plainly with what to do, the provider's own words folded away, and Retry, which asks
// the turn again as a new version. What the turn used sits in Details with the provider's words. A
// failed model call can also be retried with another model: the conversation moves to it.
import type { ComponentChildren } from "preact";
import type { AgentMessage, ModelRef, Prices } from "../../../../protocol";
import { describeFailure } from "../../lib/termination";
import { answerPrices, metered } from "../../lib/token-usage";
import { parseRefKey, refOf, sameModel, useModels } from "../../lib/use-models";
import { PlainText } from "../../ui/plain-text";
import side from "../agent-message/side.module.css";
import { MessageActions } from "../message-actions";
import { ModelOptions } from "../model-picker/model-options";
import { TokenMeter } from "../token-meter";
import style from "./style.module.css";

type Props = {
  message: AgentMessage;
  prices?: Prices;
  /** Runs the turn again (a regenerate): a new version beside this one. */
  onRetry?: () => void;
  /** Runs it again on another model, which the conversation keeps from then on. */
  onRetryWith?: (model: ModelRef) => void;
  /** Why Retry cannot be used now (a turn is running…): disabled with this tooltip. */
  blocked?: string | null;
  /** ‹ n/m › when this turn has versions. */
  switcher?: ComponentChildren;
};

/** "Retry with…": every model the user has but the one that failed, by provider. */
function RetryWith({
  failed,
  onChoose,
  blocked,
}: {
  failed?: ModelRef;
  onChoose: (model: ModelRef) => void;
  blocked?: string | null;
}) {
  const models = useModels();
  if (models.status !== "ready") return null;
  const others = models.list.models.filter((m) => !sameModel(refOf(m), failed));
  if (others.length === 0) return null;
  return (
    <select
      class={style.retryWith}
      value=""
      disabled={!!blocked}
      title={blocked ?? undefined}
      aria-label="Retry with another model"
      onChange={(event) => {
        const ref = parseRefKey(event.currentTarget.value);
        event.currentTarget.value = "";
        if (ref) onChoose(ref);
      }}
      data-testid="retry-with"
    >
      <option value="">Retry with another model…</option>
      <ModelOptions models={others} />
    </select>
  );
}

export function ErrorBubble({ message, prices, onRetry, onRetryWith, blocked, switcher }: Props) {
  const failure = describeFailure(message.termination_reason ?? "llm_error", message.content, message.note);
  const failedModel = message.model?.provider_id
    ? { provider_id: message.model.provider_id, model: message.model.model }
    : undefined;
  const used = message.usage && message.usage.total_tokens > 0 ? message.usage : null;
  return (
    <div class={side.wrap}>
      <div
        class={side.row}
        data-role="agent"
        data-seq={message.seq}
        data-phase={message.phase}
        data-testid="error-bubble"
        data-reason={message.termination_reason}
        role="alert"
      >
        <div class={`${side.bubble} ${style.bubble}`}>
          <p class={style.title} data-testid="error-title">
            <span class={style.icon} aria-hidden="true">
              ✖
            </span>{" "}
            {failure.title}
          </p>
          <p class={style.hint} data-testid="error-hint">
            {failure.hint}
          </p>
          {failure.partial && (
            <div class={style.partial} data-testid="error-partial">
              <div class={style.label}>What was written before it failed</div>
              <PlainText text={failure.partial} />
            </div>
          )}
          {(failure.detail || used) && (
            <details class={style.detail}>
              <summary>Details</summary>
              {failure.detail && <p data-testid="error-detail">{failure.detail}</p>}
              {used && <TokenMeter metered={metered(used, answerPrices(message, prices))} scope="turn" />}
            </details>
          )}
          <div class={style.actions}>
            {onRetry && (
              <button
                type="button"
                class={style.retry}
                onClick={onRetry}
                disabled={!!blocked}
                title={blocked ?? undefined}
                data-testid="retry"
              >
                Retry
              </button>
            )}
            {onRetryWith && message.termination_reason === "llm_error" && (
              <RetryWith failed={failedModel} onChoose={onRetryWith} blocked={blocked} />
            )}
          </div>
        </div>
      </div>
      <MessageActions createdAt={message.created_at} copyText={message.content}>
        {switcher}
      </MessageActions>
    </div>
  );
}
