// When a schedule runs: its rule checked against the limits and its occurrences computed in its time
// zone. The cron arithmetic (time zones, DST gaps and repeats, day-of-month/day-of-week) is croner's, a
// small, dependency-free, well-kept library that runs unchanged in workerd, Node and the browser.
import { Cron } from "croner";
import {
  MAX_SCHEDULE_AHEAD_DAYS,
  MIN_SCHEDULE_INTERVAL_MINUTES,
  normalizeRepeat,
  type Schedule,
} from "../protocol/schedules";

/** A stored rule: a one-off's instant or a recurring cron expression, with the zone it is read in. */
export type Rule = { kind: "once"; at: string } | { kind: "cron"; cron: string };

/** A rule that fails, with the field to blame and why in words. */
export interface RuleProblem {
  field: "at" | "repeat" | "paused";
  message: string;
}

/** How many upcoming runs are checked against the minimum interval. */
const INTERVAL_SAMPLES = 12;

function cronOf(expression: string, timeZone: string): Cron {
  // Paused: croner only computes occurrences here, it never schedules a callback.
  return new Cron(expression, { timezone: timeZone, mode: "5-part", paused: true });
}

/** The first occurrence strictly after `after` (ISO), or null when the rule has no more. */
export function nextRun(rule: Rule, timeZone: string, after: Date): string | null {
  if (rule.kind === "once") return Date.parse(rule.at) > after.getTime() ? rule.at : null;
  return cronOf(rule.cron, timeZone).nextRun(after)?.toISOString() ?? null;
}

/** The next `n` occurrences after `after`. */
export function nextRuns(cron: string, timeZone: string, after: Date, n: number): Date[] {
  return cronOf(cron, timeZone).nextRuns(n, after);
}

/** Offset of `zone` from UTC at `instant`, in ms. */
function zoneOffset(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return (
    Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - (instant - (instant % 1000))
  );
}

/**
 * An ISO date-time as an instant: with an offset or Z as it says, without one as wall time in `zone`
 * (a wall time skipped by a DST change moves forward by the gap). Undefined when it is not a date-time.
 */
export function instantOf(text: string, zone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    text.trim(),
  );
  if (!m) return undefined;
  if (m[7]) {
    const at = Date.parse(text.trim().replace(" ", "T"));
    return Number.isNaN(at) ? undefined : new Date(at).toISOString();
  }
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  const check = new Date(wall);
  if (check.getUTCMonth() !== (mo ?? 1) - 1 || check.getUTCDate() !== d || (h ?? 0) > 23) return undefined;
  // Two passes find the offset in force at the wall time itself (it may differ from the one at `wall` as UTC).
  let at = wall - zoneOffset(wall, zone);
  at = wall - zoneOffset(at, zone);
  return new Date(at).toISOString();
}

/** A one-off's time: parsed in `zone`, in the future and within MAX_SCHEDULE_AHEAD_DAYS. */
export function checkAt(text: string, zone: string, now: Date): { at: string } | RuleProblem {
  const at = instantOf(text, zone);
  if (!at) return { field: "at", message: "at is not an ISO date-time such as 2026-12-01T08:00" };
  if (Date.parse(at) <= now.getTime())
    return { field: "at", message: "at is in the past; a one-off must be in the future" };
  if (Date.parse(at) > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000)
    return { field: "at", message: `at is more than ${MAX_SCHEDULE_AHEAD_DAYS} days ahead` };
  return { at };
}

/**
 * A recurring rule as cron, checked: croner must read it, it must run again, and no two of its next
 * runs may be closer than `minMinutes` (so "every 5 minutes" is refused, whatever its form).
 */
export function checkRepeat(
  text: string,
  zone: string,
  now: Date,
  minMinutes = MIN_SCHEDULE_INTERVAL_MINUTES,
): { cron: string } | RuleProblem {
  const cron = normalizeRepeat(text);
  if (!cron)
    return {
      field: "repeat",
      message: 'repeat is not a 5-field cron expression or a form such as "every weekday at 08:00"',
    };
  let runs: Date[];
  try {
    runs = nextRuns(cron, zone, now, INTERVAL_SAMPLES);
  } catch (error) {
    return { field: "repeat", message: `repeat: ${(error as Error).message}` };
  }
  if (!runs.length) return { field: "repeat", message: "repeat never runs" };
  for (let i = 1; i < runs.length; i++) {
    const gap = (runs[i]?.getTime() ?? 0) - (runs[i - 1]?.getTime() ?? 0);
    if (gap < minMinutes * 60_000)
      return { field: "repeat", message: `repeat runs more often than every ${minMinutes} minutes` };
  }
  return { cron };
}

/** The stored rule of a schedule row. */
export function ruleOf(schedule: Pick<Schedule, "kind" | "at" | "cron">): Rule {
  return schedule.kind === "once"
    ? { kind: "once", at: schedule.at ?? "" }
    : { kind: "cron", cron: schedule.cron ?? "" };
}
