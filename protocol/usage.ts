// Token usage (docs/protocol.md `response_complete.usage`) and what the client needs to show it as a meter.
import { z } from "zod";

export const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  /** Input tokens the provider served from its prompt cache (part of input_tokens), when it reports them. */
  cached_input_tokens: z.number().optional(),
  /** Output tokens the model spent reasoning (part of output_tokens), when the provider reports them. */
  reasoning_tokens: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Prices in the operator's currency per million tokens (OPENAI_PRICE_*); absent when not configured. */
/** Per million tokens, 0 or more (a negative price would show a credit). */
const price = z.number({ error: "a price of 0 or more" }).nonnegative("a price of 0 or more");
export const PricesSchema = z.object({ input: price, cached_input: price, output: price });
export type Prices = z.infer<typeof PricesSchema>;

/** Which model answers (hello frame, /api/health): never the key. */
export const ModelInfoSchema = z.object({
  /** The kind of provider: "openai" (any OpenAI-compatible server) or "demo". */
  provider: z.string(),
  model: z.string(),
  /** No request to the model is larger (OPENAI_CONTEXT_WINDOW, or the user's setting for the model). */
  context_window: z.number().optional(),
  prices: PricesSchema.optional(),
  /** Which provider (`default`: the operator's; else one of the user's, protocol/models.ts) and its name. */
  provider_id: z.string().optional(),
  provider_name: z.string().optional(),
  /** The cap on one answer. */
  max_output_tokens: z.number().optional(),
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
