// The next daylight-saving changes in America/New_York, for tests of schedules across them: the clocks
// spring forward on March's second Sunday (02:00 → 03:00) and fall back on November's first (02:00 →
// 01:00). Each is the next one still ahead (its change is at 06:00 or 07:00 UTC), so within a year.

/** The next `nth` Sunday of `month` (0-based) whose 05:00 UTC is ahead, as "YYYY-MM-DD". */
function nextSunday(month: number, nth: number): string {
  for (let year = new Date().getUTCFullYear(); ; year++) {
    const first = new Date(Date.UTC(year, month, 1));
    const day = Date.UTC(year, month, 1 + ((7 - first.getUTCDay()) % 7) + (nth - 1) * 7);
    if (day + 5 * 3600_000 > Date.now()) return new Date(day).toISOString().slice(0, 10);
  }
}

export const springForward = () => nextSunday(2, 2);
export const fallBack = () => nextSunday(10, 1);
