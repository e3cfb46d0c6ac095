// A user's own use of the operator's models (docs/protocol.md "Quotas and usage"): this UTC day and month
// against the quota, and the last days by day and model (Settings → Usage).
import { Hono } from "hono";
import { defaultLimits, effectiveLimits, resetsAt } from "../../core/quota-rules";
import { readOverride } from "../../d1/quotas";
import { readTotals, sinceDay, usageRows } from "../../d1/usage";
import { UsageQuerySchema, type UsageReport } from "../../protocol";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readQuery } from "../validate";
import { pricesConfigured } from "./admin";

export const usageRoutes = new Hono<AppEnv>();

usageRoutes.get("/", async (c) => {
  const { days } = readQuery(c, UsageQuerySchema);
  const user = currentUser(c);
  const now = Date.now();
  const [totals, override, rows] = await Promise.all([
    readTotals(c.env.DB, user.id, now),
    readOverride(c.env.DB, user.id),
    usageRows(c.env.DB, sinceDay(days, now), user.id),
  ]);
  const limits = effectiveLimits(defaultLimits(c.env), override);
  const report: UsageReport = {
    day: {
      period: totals.day.period,
      tokens: totals.day.tokens,
      cost: totals.day.cost,
      ...(limits.daily_tokens !== undefined ? { token_limit: limits.daily_tokens } : {}),
      ...(limits.daily_cost !== undefined ? { cost_limit: limits.daily_cost } : {}),
      resets_at: resetsAt("day", now),
    },
    month: {
      period: totals.month.period,
      tokens: totals.month.tokens,
      cost: totals.month.cost,
      ...(limits.monthly_tokens !== undefined ? { token_limit: limits.monthly_tokens } : {}),
      ...(limits.monthly_cost !== undefined ? { cost_limit: limits.monthly_cost } : {}),
      resets_at: resetsAt("month", now),
    },
    priced: pricesConfigured(c.env),
    rows,
  };
  return c.json(report);
});
