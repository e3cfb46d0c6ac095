// Wall-clock time in an IANA zone, and the one rule for a wall time that a daylight-saving change skips
// or shows twice (docs/protocol.md "Schedules"), as Vixie cron and croner keep a fixed time of day:
// - skipped (in a gap, 02:30 when 02:00 jumps to 03:00): the first instant after the gap, when the
//   clocks jump (03:00). Never before the time asked for, and never after a time that comes later on the
//   wall clock, so schedules keep their order; shifting by the gap's length (03:30) would not.
// - shown twice (01:30 when 02:00 goes back to 01:00): once, at its first occurrence.
// A wall time is kept as ms on a UTC clock (Date.UTC of its fields), so Date's UTC getters read it.

const DAY = 86_400_000;
/** Transitions are found by stepping a week at a time: no zone changes its offset twice within 35 days. */
const STEP = 7 * DAY;

const formats = new Map<string, Intl.DateTimeFormat>();

/** Offset of `zone` from UTC at `instant`, in ms (Intl reads whole seconds). */
export function zoneOffset(instant: number, zone: string): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const shown = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return shown - Math.floor(instant / 1000) * 1000;
}

/** The wall time `instant` shows in `zone`. */
export const wallOf = (instant: number, zone: string): number => instant + zoneOffset(instant, zone);

/** A change of offset: at `at` the clocks go from `from` to `to` (wall times). */
export interface Transition {
  at: number;
  from: number;
  to: number;
}

/** The change between `lo` and `hi` (whole seconds, `hi` after it): the first instant on the new offset. */
function changeBetween(lo: number, hi: number, zone: string): Transition {
  const before = zoneOffset(lo, zone);
  let [a, b] = [lo, hi];
  while (b - a > 1000) {
    const mid = a + Math.floor((b - a) / 2000) * 1000;
    if (zoneOffset(mid, zone) === before) a = mid;
    else b = mid;
  }
  return { at: b, from: b + before, to: b + zoneOffset(b, zone) };
}

/** What a wall time stands for: the instant it runs at, and the change that skips or repeats it. */
export type WallInstant =
  | { at: number; kind: "normal" }
  | { at: number; kind: "skipped" | "repeated"; change: Transition };

/** The instant a wall time in `zone` stands for, by the rule above. */
export function instantAt(wall: number, zone: string): WallInstant {
  // The offsets a day either side: a transition near the wall time lies between them.
  const early = zoneOffset(wall - DAY, zone);
  const late = zoneOffset(wall + DAY, zone);
  const fits = [...new Set([wall - early, wall - late])]
    .filter((at) => wallOf(at, zone) === wall)
    .sort((x, y) => x - y);
  const [first, second] = fits;
  if (first !== undefined && second === undefined) return { at: first, kind: "normal" };
  if (first !== undefined && second !== undefined)
    return { at: first, kind: "repeated", change: changeBetween(first, second, zone) };
  const change = changeBetween(wall - late, wall - early, zone);
  return { at: change.at, kind: "skipped", change };
}

/** Per zone, the changes found over a span twice as long as asked for, so most calls find them known. */
const transitionCache = new Map<string, { start: number; end: number; found: Transition[] }>();

/** The zone's changes of offset in [from, to), oldest first. */
export function transitions(zone: string, from: number, to: number): Transition[] {
  let known = transitionCache.get(zone);
  if (!known || from < known.start || to > known.end) {
    const start = Math.floor(from / DAY) * DAY;
    known = { start, end: to + (to - start), found: [] };
    for (let t = start; t < known.end; t += STEP) {
      const next = Math.min(t + STEP, known.end);
      if (zoneOffset(t, zone) !== zoneOffset(next, zone)) known.found.push(changeBetween(t, next, zone));
    }
    transitionCache.set(zone, known);
  }
  return known.found.filter((t) => t.at >= from && t.at < to);
}
