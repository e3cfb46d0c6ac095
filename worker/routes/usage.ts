// A user's own use of the operator's models (docs/protocol.md "Quotas and usage"): this UTC day and month
// against the quota, and the last days by day and model (Settings → Usage).
import { Hono } from "hono";
import { pricesConfigured } from "../../agent/llm/config";
import { limitsFor, resetsAt } from "../../core/quota-rules";
import { readOverride } from "../../d1/quotas";
import { readTotals, sinceDay, type Totals, usageRows } from "../../d1/usage";
import { type PeriodUsage, type QuotaPeriod, UsageQuerySchema, type UsageReport } from "../../protocol";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readQuery } from "../validate";

export const usageRoutes = new Hono<AppEnv>();

usageRoutes.get("/", async (c) => {
  const { days } = readQuery(c, UsageQuerySchema);
  const user = currentUser(c);
  const now = Date.now();
  const [totals, override, rows] = await Promise.all([
    readTotals(c.var.shard, user.id, now),
    readOverride(c.var.shard, user.id),
    usageRows(c.var.shard, sinceDay(days, now), user.id),
  ]);
  const limits = limitsFor(c.env, override);
  const report: UsageReport = {
    day: periodUsage("day", totals.day, [limits.daily_tokens, limits.daily_cost], now),
    month: periodUsage("month", totals.month, [limits.monthly_tokens, limits.monthly_cost], now),
    priced: pricesConfigured(c.env),
    rows,
  };
  return c.json(report);
});

/** One period's use against its limits ([tokens, cost], each absent when not limited). */
function periodUsage(
  period: QuotaPeriod,
  spent: Totals["day"],
  [tokenLimit, costLimit]: (number | undefined)[],
  now: number,
): PeriodUsage {
  return {
    period: spent.period,
    tokens: spent.tokens,
    cost: spent.cost,
    ...(tokenLimit !== undefined ? { token_limit: tokenLimit } : {}),
    ...(costLimit !== undefined ? { cost_limit: costLimit } : {}),
    resets_at: resetsAt(period, now),
  };
}
