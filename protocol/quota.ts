// Quotas on the operator's models and the usage they count (docs/protocol.md "Quotas and usage").
// A quota caps what one user may spend of the operator's models per UTC day and per UTC month, in tokens
// and/or cost (the operator's prices, OPENAI_PRICE_*). The user's own providers are never counted.
import { z } from "zod";

/** A limit of 0 or more; `null` in an override means "no limit" for that user. */
const tokens = z.number().int("a whole number").nonnegative("0 or more").max(1e12, "at most 10^12");
const cost = z.number().nonnegative("0 or more").max(1e9, "at most 10^9");

/** The four limits; a missing one is not limited. */
export const QuotaLimitsSchema = z.object({
  daily_tokens: tokens.optional(),
  monthly_tokens: tokens.optional(),
  daily_cost: cost.optional(),
  monthly_cost: cost.optional(),
});
export type QuotaLimits = z.infer<typeof QuotaLimitsSchema>;
export const QUOTA_LIMIT_KEYS = ["daily_tokens", "monthly_tokens", "daily_cost", "monthly_cost"] as const;
export type QuotaLimitKey = (typeof QUOTA_LIMIT_KEYS)[number];

/**
 * `PUT /api/admin/users/:id/quota`: per limit, a number (this user's limit), `null` (no limit for this
 * user) or absent (the operator's default, QUOTA_* variables). `{}` puts the user back on the defaults.
 */
export const QuotaOverrideSchema = z.strictObject({
  daily_tokens: tokens.nullable().optional(),
  monthly_tokens: tokens.nullable().optional(),
  daily_cost: cost.nullable().optional(),
  monthly_cost: cost.nullable().optional(),
});
export type QuotaOverride = z.infer<typeof QuotaOverrideSchema>;

export const QuotaPeriodSchema = z.enum(["day", "month"]);
export type QuotaPeriod = z.infer<typeof QuotaPeriodSchema>;

/** What one period has used, its limits and when it starts afresh. */
export const PeriodUsageSchema = z.object({
  /** `2026-11-28` (a UTC day) or `2026-11` (a UTC month). */
  period: z.string(),
  tokens: z.number(),
  cost: z.number(),
  token_limit: z.number().optional(),
  cost_limit: z.number().optional(),
  /** ISO time: the next UTC midnight, or the first of the next month. */
  resets_at: z.string(),
});
export type PeriodUsage = z.infer<typeof PeriodUsageSchema>;

/** One row of usage: a UTC day and a model (`provider/model`; only the operator's are counted). */
export const UsageRowSchema = z.object({
  day: z.string(),
  model: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost: z.number(),
  calls: z.number(),
});
export type UsageRow = z.infer<typeof UsageRowSchema>;

/** `GET /api/usage`: this day and month against the quota, and the last `days` days by day and model. */
export const UsageReportSchema = z.object({
  day: PeriodUsageSchema,
  month: PeriodUsageSchema,
  /** Prices are configured: `cost` figures mean something (else they are 0). */
  priced: z.boolean(),
  /** Oldest first; a day with no use has no row. */
  rows: z.array(UsageRowSchema),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;

export const UsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1, "1 to 366").max(366, "1 to 366").default(30),
});

/** The share of a limit at which the agent and the user are warned (`quota.warning`), once per period. */
export const QUOTA_WARNING_PERCENTS = [80, 95] as const;
