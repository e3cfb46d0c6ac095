// When a schedule runs: its rule checked against the limits and its occurrences computed in its time
// zone. The cron arithmetic (day-of-month/day-of-week, ranges, steps) is croner's, a small,
// dependency-free, well-kept library that runs unchanged in workerd, Node and the browser. Across a
// daylight-saving change a fixed time of day follows the rule of core/wall-clock.ts in every zone (croner's
// own skips a gap that ends on the next day, as in America/Nuuk); a rule with `*` or a step in its minute
// or hour ("every hour", "*/30 * * * *") counts real time as croner does: a skipped time does not run, a
// repeated one runs both times. When a saved time falls in a gap or a repeated hour, `note` says so.
import { Cron } from "croner";
import {
  MAX_SCHEDULE_AHEAD_DAYS,
  MIN_SCHEDULE_INTERVAL_MINUTES,
  normalizeRepeat,
  parseDayAt,
  type Schedule,
} from "../protocol/schedules";
import { instantAt, type Transition, transitions, type WallInstant, wallOf } from "./wall-clock";

/** A stored rule: a one-off's instant or a recurring cron expression, with the zone it is read in. */
export type Rule = { kind: "once"; at: string } | { kind: "cron"; cron: string };

/** A rule that fails, with the field to blame and why in words. */
export interface RuleProblem {
  field: "at" | "repeat" | "paused";
  message: string;
}

/** How many upcoming runs are checked against the minimum interval. */
const INTERVAL_SAMPLES = 12;
/** Wall times a fixed rule may walk past before one comes after `after` (a repeated hour's, at most). */
const MAX_WALK = 500;
const DAY = 86_400_000;

function cronOf(expression: string, timeZone: string): Cron {
  // Paused: croner only computes occurrences here, it never schedules a callback.
  return new Cron(expression, { timezone: timeZone, mode: "5-part", paused: true });
}

/** A rule of times of day: no `*` or step in its minute and hour (as Vixie cron tells them from the rest). */
const isFixedTime = (cron: string) => cron.split(" ", 2).every((field) => !/[*?/]/.test(field));

/** The first run of a fixed-time rule after `after`: its wall times in order, each read by instantAt. */
function nextWallRun(cron: string, zone: string, after: number): number | null {
  // The rule read on a UTC clock walks wall times; instantAt never maps a later wall time earlier.
  const walls = cronOf(cron, "UTC");
  let wall = new Date(wallOf(after, zone));
  for (let i = 0; i < MAX_WALK; i++) {
    const next = walls.nextRun(wall);
    if (!next) return null;
    const at = instantAt(next.getTime(), zone).at;
    if (at > after) return at;
    wall = next;
  }
  return null;
}

/** The first occurrence strictly after `after` (ISO), or null when the rule has no more. */
export function nextRun(rule: Rule, timeZone: string, after: Date): string | null {
  if (rule.kind === "once") return Date.parse(rule.at) > after.getTime() ? rule.at : null;
  const next = isFixedTime(rule.cron)
    ? nextWallRun(rule.cron, timeZone, after.getTime())
    : (cronOf(rule.cron, timeZone).nextRun(after)?.getTime() ?? null);
  return next === null ? null : new Date(next).toISOString();
}

/** The next `n` occurrences after `after`. */
export function nextRuns(cron: string, timeZone: string, after: Date, n: number): Date[] {
  const runs: Date[] = [];
  for (let from = after; runs.length < n; ) {
    const next = nextRun({ kind: "cron", cron }, timeZone, from);
    if (!next) break;
    from = new Date(next);
    runs.push(from);
  }
  return runs;
}

const clock = (wall: number) => new Date(wall).toISOString().slice(11, 16);
const day = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/** "the clocks go forward from 02:00 to 03:00" */
function clocksGo(change: Transition): string {
  return `the clocks go ${change.to > change.from ? "forward" : "back"} from ${clock(change.from)} to ${clock(change.to)}`;
}

/** When the clocks' jump at `change` shows, said beside the day of `wall`: "03:00", or "00:00 on 2026-03-29". */
function jumpTime(change: Transition, wall: number): string {
  return day(change.to) === day(wall) ? clock(change.to) : `${clock(change.to)} on ${day(change.to)}`;
}

/** A one-off's wall time that a change skips or repeats, in words: when it actually runs. */
function onceNote(wall: number, read: WallInstant, zone: string): string | undefined {
  if (read.kind === "normal") return undefined;
  const when = `${day(wall)} ${clock(wall)}`;
  if (read.kind === "repeated")
    return `${when} happens twice in ${zone}: ${clocksGo(read.change)}, so it runs once, at the first ${clock(wall)}.`;
  return `${when} does not exist in ${zone}: ${clocksGo(read.change)}, so it runs at ${jumpTime(read.change, wall)}.`;
}

/** A minute or hour field of a fixed-time rule (numbers and ranges, no `*` or step): its values. */
function fieldValues(field: string): Set<number> {
  const values = new Set<number>();
  for (const part of field.split(",")) {
    const [lo, hi = lo] = part.split("-").map(Number);
    for (let v = lo ?? 0; v <= (hi ?? 0); v++) values.add(v);
  }
  return values;
}

/** The rule's wall times in [from, to) (a gap's or a repeated hour's, at most a few hours). */
function wallsWithin(cron: string, from: number, to: number): number[] {
  // The minute and hour lists first: most rules have no time there, and croner is then not needed.
  const [minutes, hours] = cron.split(" ", 2).map(fieldValues);
  const times: number[] = [];
  for (let wall = Math.ceil(from / 60_000) * 60_000; wall < to; wall += 60_000) {
    const at = new Date(wall);
    if (hours?.has(at.getUTCHours()) && minutes?.has(at.getUTCMinutes())) times.push(wall);
  }
  if (!times.length) return times;
  const walls = cronOf(cron, "UTC");
  return times.filter((wall) => walls.match(new Date(wall)));
}

/** One change that skips or repeats some of the rule's times, in words. */
function changeNote(change: Transition, times: number[], zone: string): string {
  const list = times.map(clock).join(", ");
  const many = times.length > 1;
  if (change.to < change.from)
    return `On ${day(change.to)}, ${list} ${many ? "happen" : "happens"} twice in ${zone}: ${clocksGo(change)}, so ${many ? "each runs once, at its first" : `it runs once, at the first ${list}`}.`;
  const at = jumpTime(change, change.from);
  return `On ${day(change.from)}, ${list} ${many ? "do" : "does"} not exist in ${zone}: ${clocksGo(change)}, so that day ${many ? "they run once" : "it runs"} at ${at}.`;
}

/**
 * What a recurring rule does at the zone's next daylight-saving changes (the next gap and the next
 * repeated hour within MAX_SCHEDULE_AHEAD_DAYS that hold one of its times), in words; undefined when
 * none does. Only for rules of times of day: the others count real time, which needs no word.
 */
export function ruleNote(cron: string, zone: string, now: Date): string | undefined {
  if (!isFixedTime(cron)) return undefined;
  const notes = new Map<"skipped" | "repeated", string>();
  for (const change of transitions(zone, now.getTime(), now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * DAY)) {
    const kind = change.to > change.from ? "skipped" : "repeated";
    if (notes.has(kind)) continue;
    const times = wallsWithin(cron, Math.min(change.from, change.to), Math.max(change.from, change.to));
    if (times.length) notes.set(kind, changeNote(change, times, zone));
  }
  return notes.size ? [...notes.values()].join(" ") : undefined;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO date-time as an instant: with an offset or Z as it says, without one as wall time in `zone`,
 * read by the rule of core/wall-clock.ts (with `note` when a change skips or repeats it). Undefined when
 * it is not a date-time.
 */
export function readAt(text: string, zone: string): { at: string; note?: string } | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  if (m[7]) {
    const at = Date.parse(text.trim().replace(" ", "T"));
    return Number.isNaN(at) ? undefined : { at: new Date(at).toISOString() };
  }
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  const check = new Date(wall);
  if (check.getUTCMonth() !== (mo ?? 1) - 1 || check.getUTCDate() !== d || (h ?? 0) > 23) return undefined;
  const read = instantAt(wall, zone);
  const note = onceNote(wall, read, zone);
  return { at: new Date(read.at).toISOString(), ...(note ? { note } : {}) };
}

/** readAt's instant alone. */
export const instantOf = (text: string, zone: string): string | undefined => readAt(text, zone)?.at;

/**
 * A day and time in words ("friday at 9", "tomorrow at 8:30") as the next such wall time in `zone` after
 * `now`: a weekday whose time passed today is next week's; "today" and "tomorrow" are those days alone.
 * Read like an ISO wall time (readAt, with its note). Undefined when the words are not such a form.
 */
export function readDayAt(text: string, zone: string, now: Date): { at: string; note?: string } | undefined {
  const asked = parseDayAt(text);
  if (!asked) return undefined;
  const today = new Date(wallOf(now.getTime(), zone));
  const first = asked.day === "tomorrow" ? 1 : 0;
  const last = typeof asked.day === "number" ? 7 : first;
  let read: { at: string; note?: string } | undefined;
  for (let add = first; add <= last; add++) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + add));
    if (typeof asked.day === "number" && day.getUTCDay() !== asked.day) continue;
    const wall = `${day.toISOString().slice(0, 10)}T${pad(asked.hour)}:${pad(asked.minute)}`;
    read = readAt(wall, zone);
    if (read && Date.parse(read.at) > now.getTime()) return read;
  }
  // "today at 8" once 8 has passed: the past instant, for checkAt to refuse in its words.
  return read;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A one-off's time: parsed in `zone`, in the future and within MAX_SCHEDULE_AHEAD_DAYS. */
export function checkAt(text: string, zone: string, now: Date): { at: string; note?: string } | RuleProblem {
  const read = readAt(text, zone) ?? readDayAt(text, zone, now);
  if (!read)
    return {
      field: "at",
      message: 'at is not an ISO date-time such as 2026-12-01T08:00, or a day and time such as "friday at 9"',
    };
  const at = Date.parse(read.at);
  if (at <= now.getTime()) return { field: "at", message: "at is in the past; a one-off must be in the future" };
  if (at > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * DAY)
    return { field: "at", message: `at is more than ${MAX_SCHEDULE_AHEAD_DAYS} days ahead` };
  return read;
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
