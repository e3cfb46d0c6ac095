// Token usage as the meter shows it: figures grouped in the reader's locale, an estimated cost from the
// operator's prices (protocol usageCost), and a conversation's total over its final answers.
import { type AgentMessage, type Message, type Prices, type Usage, usageCost } from "../../../protocol";

/** What the meter shows: a usage, and its cost when the operator configured prices. */
export type Metered = { usage: Usage; cost?: number };

export function formatTokens(n: number): string {
  return n.toLocaleString();
}

/**
 * An estimate, so marked "≈": cents from $1 up, four decimals below (most turns cost fractions of a
 * cent), and "< $0.0001" rather than a misleading "$0.0000".
 */
export function formatCost(cost: number): string {
  if (cost === 0) return "$0";
  if (cost < 0.0001) return "< $0.0001";
  const digits = cost >= 1 ? 2 : 4;
  const amount = cost.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `≈ $${amount}`;
}

/**
 * What an answer is priced at: the prices of the model that wrote it (the conversation may have moved to
 * another since), else `fallback` (the conversation's) for an answer that does not say its model.
 */
export const answerPrices = (message: AgentMessage, fallback: Prices | undefined): Prices | undefined =>
  message.model ? message.model.prices : fallback;

export function metered(usage: Usage, prices: Prices | undefined): Metered {
  return prices ? { usage, cost: usageCost(usage, prices) } : { usage };
}

/**
 * The sum over every final answer that carries usage (older ones do not), or null when none does.
 * Each answer's usage already includes its subagents' (the delegate call charges the turn), so only
 * this conversation's own messages are summed. Each answer is priced at the prices of the model that
 * wrote it (a conversation can change models; `prices` for an answer that does not say its model), and
 * a cost is shown only when every answer has prices: half a sum would mislead.
 */
export function conversationTotal(messages: Iterable<Message>, prices: Prices | undefined): Metered | null {
  const usages: Usage[] = [];
  let cost: number | undefined = 0;
  for (const message of messages) {
    if (message.role !== "agent" || !message.usage) continue;
    usages.push(message.usage);
    const own = answerPrices(message, prices);
    cost = own && cost !== undefined ? cost + usageCost(message.usage, own) : undefined;
  }
  if (usages.length === 0) return null;
  const sum = (pick: (usage: Usage) => number) => usages.reduce((n, usage) => n + pick(usage), 0);
  // "cached" only when some answer reported it: a provider that never does would show a false 0.
  const cached = usages.some((usage) => usage.cached_input_tokens !== undefined);
  const usage: Usage = {
    input_tokens: sum((u) => u.input_tokens),
    output_tokens: sum((u) => u.output_tokens),
    total_tokens: sum((u) => u.total_tokens),
    ...(usages.some((u) => u.reasoning_tokens) ? { reasoning_tokens: sum((u) => u.reasoning_tokens ?? 0) } : {}),
    ...(cached ? { cached_input_tokens: sum((u) => u.cached_input_tokens ?? 0) } : {}),
  };
  return cost === undefined ? { usage } : { usage, cost };
}
