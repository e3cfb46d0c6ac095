// Token usage (docs/protocol.md `response_complete.usage`) and what the client needs to show it as a meter.
import { z } from "zod";

export const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  /** Input tokens the provider served from its prompt cache (part of input_tokens), when it reports them. */
  cached_input_tokens: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Prices in the operator's currency per million tokens (OPENAI_PRICE_*); absent when not configured. */
export const PricesSchema = z.object({ input: z.number(), cached_input: z.number(), output: z.number() });
export type Prices = z.infer<typeof PricesSchema>;

/** Which model answers (hello frame, /api/health): never the key. */
export const ModelInfoSchema = z.object({
  provider: z.string(),
  model: z.string(),
  /** OPENAI_CONTEXT_WINDOW: no request to the model is larger. */
  context_window: z.number().optional(),
  prices: PricesSchema.optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

/** Estimated cost of a usage at the given prices: cached input at its own price, the rest at full. */
export function usageCost(usage: Usage, prices: Prices): number {
  const cached = Math.min(usage.cached_input_tokens ?? 0, usage.input_tokens);
  return (
    ((usage.input_tokens - cached) * prices.input +
      cached * prices.cached_input +
      usage.output_tokens * prices.output) /
    1e6
  );
}
