// The quota's rules, with no storage (docs/protocol.md "Quotas and usage"): the periods a model call is
// counted in (the UTC day and month), when each starts afresh, the limits that hold for a user (an admin's
// override over the operator's QUOTA_* defaults), which warnings a total has crossed, and the words a
// user reads when a limit is reached.
import {
  QUOTA_LIMIT_KEYS,
  QUOTA_WARNING_PERCENTS,
  type QuotaLimits,
  type QuotaOverride,
  type QuotaPeriod,
} from "../protocol";

export interface Periods {
  /** `2026-11-28` */
  day: string;
  /** `2026-11` */
  month: string;
}

export const periodsAt = (now: number): Periods => {
  const iso = new Date(now).toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
};

/** When the period that holds `now` ends: the next UTC midnight, or the first of the next UTC month. */
export function resetsAt(period: QuotaPeriod, now: number): string {
  const d = new Date(now);
  const next =
    period === "day"
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return new Date(next).toISOString();
}

type QuotaVars = Partial<
  Record<"QUOTA_DAILY_TOKENS" | "QUOTA_MONTHLY_TOKENS" | "QUOTA_DAILY_COST" | "QUOTA_MONTHLY_COST", string>
>;

const VAR_OF: Record<keyof QuotaLimits, keyof QuotaVars> = {
  daily_tokens: "QUOTA_DAILY_TOKENS",
  monthly_tokens: "QUOTA_MONTHLY_TOKENS",
  daily_cost: "QUOTA_DAILY_COST",
  monthly_cost: "QUOTA_MONTHLY_COST",
};

/** The operator's defaults: each QUOTA_* variable that holds a number of 0 or more (else no limit). */
export function defaultLimits(env: QuotaVars): QuotaLimits {
  const limits: QuotaLimits = {};
  for (const key of QUOTA_LIMIT_KEYS) {
    const raw = env[VAR_OF[key]]?.trim();
    const value = raw ? Number(raw) : Number.NaN;
    if (Number.isFinite(value) && value >= 0) limits[key] = key.endsWith("tokens") ? Math.floor(value) : value;
  }
  return limits;
}

/** The override over the defaults: a key set to null lifts that limit, a missing key keeps the default. */
export function effectiveLimits(defaults: QuotaLimits, override: QuotaOverride | undefined): QuotaLimits {
  const limits: QuotaLimits = { ...defaults };
  for (const key of QUOTA_LIMIT_KEYS) {
    if (!override || !(key in override)) continue;
    const value = override[key];
    if (value === null || value === undefined) delete limits[key];
    else limits[key] = value;
  }
  return limits;
}

/** The limits that hold for a user: an admin's override over the operator's QUOTA_* defaults. */
export const limitsFor = (env: QuotaVars, override: QuotaOverride | undefined): QuotaLimits =>
  effectiveLimits(defaultLimits(env), override);

export const hasLimits = (limits: QuotaLimits): boolean => QUOTA_LIMIT_KEYS.some((key) => limits[key] !== undefined);

/** What a period has used. */
export interface Spent {
  tokens: number;
  cost: number;
}

/** The period's limits as [kind, limit] pairs. */
function limitsOf(period: QuotaPeriod, limits: QuotaLimits): { kind: "tokens" | "cost"; limit: number }[] {
  const pairs =
    period === "day" ? [limits.daily_tokens, limits.daily_cost] : [limits.monthly_tokens, limits.monthly_cost];
  return [
    ...(pairs[0] !== undefined ? [{ kind: "tokens" as const, limit: pairs[0] }] : []),
    ...(pairs[1] !== undefined ? [{ kind: "cost" as const, limit: pairs[1] }] : []),
  ];
}

/** The highest share (a percent) of any of the period's limits that `spent` has used; 0 with no limit. */
export function percentUsed(period: QuotaPeriod, spent: Spent, limits: QuotaLimits): number {
  let highest = 0;
  for (const { kind, limit } of limitsOf(period, limits)) {
    highest = Math.max(highest, limit === 0 ? 100 : (spent[kind] / limit) * 100);
  }
  return highest;
}

/** A limit reached: of what, its value, and what was used against it. */
export interface Reached {
  kind: "tokens" | "cost";
  limit: number;
  used: number;
}

/** A limit the period has reached, if any (a limit of 0 is reached at once). */
export function reachedLimit(period: QuotaPeriod, spent: Spent, limits: QuotaLimits): Reached | undefined {
  for (const { kind, limit } of limitsOf(period, limits))
    if (spent[kind] >= limit) return { kind, limit, used: spent[kind] };
  return undefined;
}

/** The first limit reached in the day, then the month, if any. */
export function periodLimitReached(
  spent: Record<QuotaPeriod, Spent>,
  limits: QuotaLimits,
): (Reached & { period: QuotaPeriod }) | undefined {
  for (const period of ["day", "month"] as const) {
    const reached = reachedLimit(period, spent[period], limits);
    if (reached) return { period, ...reached };
  }
  return undefined;
}

/** The highest warning threshold `percent` has crossed that is above `warned` (the last one given). */
export function newWarning(percent: number, warned: number): number | undefined {
  const crossed = QUOTA_WARNING_PERCENTS.filter((p) => percent >= p && p > warned && percent < 100);
  return crossed.at(-1);
}

const amount = (kind: "tokens" | "cost", value: number) =>
  kind === "tokens" ? `${Math.round(value).toLocaleString("en-US")} tokens` : `${value.toFixed(2)} in cost`;

/** "in 3 h 20 min", "in 12 min", "in 4 days" */
export function timeUntil(iso: string, now: number): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(iso) - now) / 60_000));
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
  return `in ${Math.round(hours / 24)} days`;
}

const PERIOD_WORD: Record<QuotaPeriod, string> = { day: "today's", month: "this month's" };

/**
 * What the user and the agent read when a limit is reached: which, how much, and when it starts afresh
 * (UTC, and how long from now).
 */
export function quotaReachedWords(
  period: QuotaPeriod,
  reached: { kind: "tokens" | "cost"; limit: number },
  now: number,
): string {
  const at = resetsAt(period, now);
  const when = `${period === "day" ? at.slice(11, 16) : `${at.slice(0, 10)} ${at.slice(11, 16)}`} UTC`;
  return `You have used ${PERIOD_WORD[period]} quota of ${amount(reached.kind, reached.limit)} on this server's models. It resets at ${when} (${timeUntil(at, now)}). Your own model providers (Settings → Models) are not counted.`;
}

/** The warning's words: how much of which limit is used, and when it resets. */
export function quotaWarningWords(
  period: QuotaPeriod,
  percent: number,
  spent: Spent,
  limits: QuotaLimits,
  now: number,
): string {
  const [first] = limitsOf(period, limits);
  const figures = first ? ` (${amount(first.kind, spent[first.kind])} of ${amount(first.kind, first.limit)})` : "";
  return `${percent}% of ${PERIOD_WORD[period]} quota on this server's models is used${figures}; it resets ${timeUntil(resetsAt(period, now), now)}. Keep the rest of this answer short.`;
}
