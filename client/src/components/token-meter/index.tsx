// What a turn (or the whole conversation) used, as one quiet line: total tokens, input with the part the
// provider's prompt cache served, output with the part spent thinking, and an estimated cost when the operator set prices. The
// figures are terse; the title and the accessible name spell out what each one is.
import { formatCost, formatTokens, type Metered } from "../../lib/token-usage";
import style from "./style.module.css";

type Props = {
  metered: Metered;
  /** A turn's final answer, or the sum over the open conversation's answers. */
  scope: "turn" | "conversation";
  class?: string;
};

function describe({ usage, cost }: Metered, scope: Props["scope"]): string {
  const cached = usage.cached_input_tokens;
  return [
    scope === "turn" ? "Tokens this turn used:" : "Tokens this conversation's answers used:",
    `${formatTokens(usage.total_tokens)} in total;`,
    `${formatTokens(usage.input_tokens)} input tokens (what the model read)` +
      (cached === undefined ? ";" : `, of which ${formatTokens(cached)} were served from the provider's prompt cache;`),
    `${formatTokens(usage.output_tokens)} output tokens (what the model wrote` +
      (usage.reasoning_tokens ? `, of which ${formatTokens(usage.reasoning_tokens)} thinking` : "") +
      `)${cost === undefined ? "." : ";"}`,
    ...(cost === undefined ? [] : [`estimated cost ${formatCost(cost)} at the configured prices per million tokens.`]),
  ].join("\n");
}

/** Plain spaces around the dot, so the line wraps between parts (each part is unbreakable). */
function Sep() {
  return (
    <>
      {" "}
      <span class={style.sep} aria-hidden="true">
        ·
      </span>{" "}
    </>
  );
}

export function TokenMeter({ metered, scope, class: className }: Props) {
  const { usage, cost } = metered;
  const label = describe(metered, scope);
  return (
    <p
      class={`${style.meter} ${className ?? ""}`}
      role="note"
      aria-label={label.replaceAll("\n", " ")}
      title={label}
      data-testid={scope === "turn" ? "token-meter" : "conversation-usage"}
    >
      {scope === "conversation" && <span class={style.lead}>Total </span>}
      <span class={style.part} data-part="total">
        {formatTokens(usage.total_tokens)} tokens
      </span>
      <Sep />
      <span class={style.part} data-part="input">
        {formatTokens(usage.input_tokens)} in
      </span>
      {usage.cached_input_tokens !== undefined && (
        <>
          {" "}
          <span class={style.part} data-part="cached">
            ({formatTokens(usage.cached_input_tokens)} cached)
          </span>
        </>
      )}
      <Sep />
      <span class={style.part} data-part="output">
        {formatTokens(usage.output_tokens)} out
      </span>
      {usage.reasoning_tokens ? (
        <>
          {" "}
          <span class={style.part} data-part="reasoning">
            ({formatTokens(usage.reasoning_tokens)} thinking)
          </span>
        </>
      ) : null}
      {cost !== undefined && (
        <>
          <Sep />
          <span class={style.part} data-part="cost">
            {formatCost(cost)}
          </span>
        </>
      )}
    </p>
  );
}
