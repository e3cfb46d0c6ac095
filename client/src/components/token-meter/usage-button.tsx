// The chat header's usage button: a small gauge that opens what the conversation's answers used so far
// (the token meter) and the model that wrote the latest answer, with its context window. The figures are
// for whoever wants them, one tap away, not a line that wraps over the title on a phone.
import type { ModelInfo } from "../../../../protocol";
import { modelWords, windowWords } from "../../lib/model-words";
import { formatTokens, type Metered } from "../../lib/token-usage";
import { usePopover } from "../../lib/use-popover";
import { Icon } from "../../ui/icon";
import { TokenMeter } from "./index";
import style from "./style.module.css";

export function UsageButton({ metered, model }: { metered: Metered; model: ModelInfo | null }) {
  const { open, toggle, button, panel, onKeyDown } = usePopover();
  return (
    <div class={style.anchor}>
      <button
        ref={button}
        type="button"
        class={style.button}
        aria-expanded={open ? "true" : "false"}
        aria-controls="conversation-usage-panel"
        aria-label={`Usage: ${formatTokens(metered.usage.total_tokens)} tokens so far`}
        title="What this conversation used"
        onClick={toggle}
        onKeyDown={onKeyDown}
        data-testid="usage-button"
      >
        <Icon name="gauge" size="18px" />
      </button>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape inside the panel closes it
        <div
          ref={panel}
          id="conversation-usage-panel"
          class={style.panel}
          onKeyDown={onKeyDown}
          data-testid="usage-panel"
        >
          <TokenMeter metered={metered} scope="conversation" />
          {model && (
            <p class={style.model} data-testid="usage-model">
              Model: {modelWords(model)}
              {model.context_window && model.provider !== "demo" && (
                <span class={style.provider}> · {windowWords(model.context_window)}</span>
              )}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
