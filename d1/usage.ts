// What each user spends of the operator's models (docs/protocol.md "Quotas and usage"): the running
// totals of the UTC day and month (usage_totals, one row per user) and the rows the charts read
// (usage_daily, per day and model).
//
// A model call is admitted by one statement that checks the limits and reserves the call's estimated
// input in the same write: D1 runs it atomically, so five tabs and a subagent each see the others'
// reservations, and once the totals reach a limit no further call starts anywhere. What a call really used
// replaces its reservation when it ends. A user can therefore pass a limit by no more than the one call
// admitted just under it (what it writes beyond its estimate).
import { newWarning, type Periods, percentUsed, periodLimitReached, periodsAt, type Spent } from "../core/quota-rules";
import type { QuotaLimits, QuotaPeriod, UsageRow } from "../protocol";
import type { Reader } from "./shards";

/** A limit no total reaches: what an unset limit is compared with. */
const NONE = 9e15;

export interface Totals {
  day: Spent & { period: string; warned: number };
  month: Spent & { period: string; warned: number };
}

interface TotalsRow {
  day: string;
  day_tokens: number;
  day_cost: number;
  day_warned: number;
  month: string;
  month_tokens: number;
  month_cost: number;
  month_warned: number;
}

const RETURNING = "RETURNING day, day_tokens, day_cost, day_warned, month, month_tokens, month_cost, month_warned";

/** The row as it counts now: a period that has ended counts as nothing. */
function totalsOf(row: TotalsRow | null | undefined, at: Periods): Totals {
  const counted = (period: QuotaPeriod) => {
    const live = row?.[period] === at[period];
    return {
      period: at[period],
      tokens: live ? (row?.[`${period}_tokens`] ?? 0) : 0,
      cost: live ? (row?.[`${period}_cost`] ?? 0) : 0,
      warned: live ? (row?.[`${period}_warned`] ?? 0) : 0,
    };
  };
  return { day: counted("day"), month: counted("month") };
}

export async function readTotals(d1: D1Database, userId: string, now = Date.now()): Promise<Totals> {
  const row = await d1.prepare("SELECT * FROM usage_totals WHERE user_id = ?").bind(userId).first<TotalsRow>();
  return totalsOf(row, periodsAt(now));
}

export type Refusal =
  | { reason: "quota"; period: QuotaPeriod; kind: "tokens" | "cost"; limit: number; used: number }
  | { reason: "inactive" };

export interface Reservation {
  periods: Periods;
  tokens: number;
  cost: number;
}

/**
 * Admits one model call of an active user under `limits`, reserving its estimate (`tokens`, `cost`), or
 * says which limit (or the account's status) refuses it. One atomic statement.
 */
export async function admit(
  d1: D1Database,
  userId: string,
  limits: QuotaLimits,
  estimate: { tokens: number; cost: number },
  now = Date.now(),
): Promise<{ reservation: Reservation } | { refusal: Refusal }> {
  const at = periodsAt(now);
  const l = [limits.daily_tokens, limits.daily_cost, limits.monthly_tokens, limits.monthly_cost].map((v) => v ?? NONE);
  const active = "(SELECT status FROM users WHERE id = ?1) = 'active'";
  const day = (col: string) => `(CASE WHEN day = ?2 THEN ${col} ELSE 0 END)`;
  const month = (col: string) => `(CASE WHEN month = ?3 THEN ${col} ELSE 0 END)`;
  const row = await d1
    .prepare(
      `INSERT INTO usage_totals (user_id, day, day_tokens, day_cost, month, month_tokens, month_cost)
       SELECT ?1, ?2, ?4, ?5, ?3, ?4, ?5 WHERE ${active} AND 0 < ?6 AND 0 < ?7 AND 0 < ?8 AND 0 < ?9
       ON CONFLICT(user_id) DO UPDATE SET
         day_tokens = ${day("day_tokens")} + ?4, day_cost = ${day("day_cost")} + ?5, day_warned = ${day("day_warned")},
         month_tokens = ${month("month_tokens")} + ?4, month_cost = ${month("month_cost")} + ?5,
         month_warned = ${month("month_warned")}, day = ?2, month = ?3
       WHERE ${day("day_tokens")} < ?6 AND ${day("day_cost")} < ?7
         AND ${month("month_tokens")} < ?8 AND ${month("month_cost")} < ?9 AND ${active}
       ${RETURNING}`,
    )
    .bind(userId, at.day, at.month, estimate.tokens, estimate.cost, ...l)
    .first<TotalsRow>();
  if (row) return { reservation: { periods: at, ...estimate } };
  const status = await d1.prepare("SELECT status FROM users WHERE id = ?").bind(userId).first<{ status: string }>();
  if (status?.status !== "active") return { refusal: { reason: "inactive" } };
  const reached = periodLimitReached(await readTotals(d1, userId, now), limits);
  if (reached) return { refusal: { reason: "quota", ...reached } };
  // Refused, yet no limit is reached now: a period turned over in between. The next try decides.
  return { refusal: { reason: "quota", period: "day", kind: "tokens", limit: limits.daily_tokens ?? 0, used: 0 } };
}

/** A warning a recorded call has crossed, claimed by this caller alone (never given twice). */
export interface Crossing {
  period: QuotaPeriod;
  percent: number;
  spent: Spent;
}

/** What one call (or, `calls` > 1, several of one model) used. */
export interface UsageCall {
  model: string;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  calls: number;
}

/**
 * Records what one call used (replacing its reservation, if it had one) in the totals and the day's row
 * for its model; returns the warning it crossed, if this call is the one that crossed it.
 */
export async function record(
  d1: D1Database,
  userId: string,
  call: UsageCall,
  limits: QuotaLimits,
  reservation: Reservation | undefined,
  now = Date.now(),
): Promise<Crossing | undefined> {
  const at = periodsAt(now);
  const tokens = call.inputTokens + call.outputTokens;
  const sameDay = reservation?.periods.day === at.day;
  const sameMonth = reservation?.periods.month === at.month;
  const dayDelta = sameDay ? tokens - (reservation?.tokens ?? 0) : tokens;
  const dayCostDelta = sameDay ? call.cost - (reservation?.cost ?? 0) : call.cost;
  const monthDelta = sameMonth ? tokens - (reservation?.tokens ?? 0) : tokens;
  const monthCostDelta = sameMonth ? call.cost - (reservation?.cost ?? 0) : call.cost;
  const [written] = await d1.batch<TotalsRow>([
    d1
      .prepare(
        `INSERT INTO usage_totals (user_id, day, day_tokens, day_cost, month, month_tokens, month_cost)
         VALUES (?1, ?2, ?4, ?5, ?3, ?4, ?5)
         ON CONFLICT(user_id) DO UPDATE SET
           day_tokens = CASE WHEN day = ?2 THEN max(0, day_tokens + ?6) ELSE ?4 END,
           day_cost = CASE WHEN day = ?2 THEN max(0, day_cost + ?7) ELSE ?5 END,
           day_warned = CASE WHEN day = ?2 THEN day_warned ELSE 0 END,
           month_tokens = CASE WHEN month = ?3 THEN max(0, month_tokens + ?8) ELSE ?4 END,
           month_cost = CASE WHEN month = ?3 THEN max(0, month_cost + ?9) ELSE ?5 END,
           month_warned = CASE WHEN month = ?3 THEN month_warned ELSE 0 END,
           day = ?2, month = ?3
         ${RETURNING}`,
      )
      .bind(userId, at.day, at.month, tokens, call.cost, dayDelta, dayCostDelta, monthDelta, monthCostDelta),
    d1
      .prepare(
        `INSERT INTO usage_daily (user_id, day, model, input_tokens, output_tokens, cost, calls)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(user_id, day, model) DO UPDATE SET input_tokens = input_tokens + ?4,
           output_tokens = output_tokens + ?5, cost = cost + ?6, calls = calls + ?7`,
      )
      .bind(userId, at.day, call.model, call.inputTokens, call.outputTokens, call.cost, call.calls),
  ]);
  const row = written?.results[0];
  if (!row) return undefined;
  const totals = totalsOf(row, at);
  for (const period of ["month", "day"] as const) {
    const spent = totals[period];
    const percent = newWarning(percentUsed(period, spent, limits), spent.warned);
    if (percent === undefined) continue;
    const claimed = await d1
      .prepare(
        `UPDATE usage_totals SET ${period}_warned = ?3 WHERE user_id = ?1 AND ${period} = ?2 AND ${period}_warned < ?3 RETURNING 1 AS ok`,
      )
      .bind(userId, spent.period, percent)
      .first();
    if (claimed) return { period, percent, spent };
  }
  return undefined;
}

/** Usage rows (day × model) of one user, or of everyone, from `since` (a UTC day) on, oldest first. */
export async function usageRows(d1: Reader, since: string, userId?: string): Promise<UsageRow[]> {
  const where = userId ? "WHERE user_id = ?2 AND day >= ?1" : "WHERE day >= ?1";
  const { results } = await d1
    .prepare(
      `SELECT day, model, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
         sum(cost) AS cost, sum(calls) AS calls
       FROM usage_daily ${where} GROUP BY day, model ORDER BY day, model`,
    )
    .bind(...(userId ? [since, userId] : [since]))
    .all<UsageRow>();
  return results;
}

/** This month's heaviest users of the operator's models. */
export async function topUsers(d1: Reader, now = Date.now(), limit = 10) {
  const { results } = await d1
    .prepare(
      `SELECT t.user_id AS id, u.username, t.month_tokens AS tokens, t.month_cost AS cost
       FROM usage_totals t JOIN users u ON u.id = t.user_id
       WHERE t.month = ?1 ORDER BY t.month_tokens DESC, t.month_cost DESC LIMIT ?2`,
    )
    .bind(periodsAt(now).month, limit)
    .all<{ id: string; username: string; tokens: number; cost: number }>();
  return results;
}

/** The first UTC day of a `days`-day window that ends today. */
export const sinceDay = (days: number, now = Date.now()) => periodsAt(now - (days - 1) * 86_400_000).day;
