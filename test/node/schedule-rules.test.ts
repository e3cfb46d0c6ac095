// Schedules' rules (protocol/schedules.ts, core/schedule-times.ts, core/wall-clock.ts): friendly forms
// normalized to cron, the limits, the next occurrence across time zones, and the one rule for a wall time
// that a daylight-saving change skips or repeats, in every zone, with the note that says so.
import { describe, expect, it } from "vitest";
import {
  checkAt,
  checkRepeat,
  instantOf,
  nextRun,
  nextRuns,
  readAt,
  readDayAt,
  ruleNote,
} from "../../core/schedule-times";
import { isTimeZone } from "../../protocol";
import { describeCron, describeRule, normalizeRepeat } from "../../protocol/schedules";

describe("normalizeRepeat", () => {
  it.each([
    ["every weekday at 08:00", "0 8 * * 1-5"],
    ["Every day at 18:30", "30 18 * * *"],
    ["every monday at 9:00", "0 9 * * 1"],
    ["every mon and fri at 7pm", "0 19 * * 1,5"],
    ["every weekend at 10am", "0 10 * * 0,6"],
    ["every hour", "0 * * * *"],
    ["0 8 * * 1-5", "0 8 * * 1-5"],
  ])("%s → %s", (rule, cron) => expect(normalizeRepeat(rule)).toBe(cron));

  it.each(["every blursday at 8:00", "every day at 25:00", "tomorrow", "0 8 * *"])("refuses %s", (rule) =>
    expect(normalizeRepeat(rule)).toBeUndefined(),
  );

  it("describes the friendly forms in words", () => {
    expect(describeCron("0 8 * * 1-5")).toBe("Every weekday at 08:00");
    expect(describeCron("30 18 * * *")).toBe("Every day at 18:30");
    expect(describeCron("0 9 * * 1")).toBe("Every Monday at 09:00");
    expect(describeCron("0 8 1 * *")).toBe("Cron “0 8 1 * *”");
    expect(describeRule({ kind: "cron", cron: "0 8 * * 1-5", at: null, time_zone: "Europe/Paris" })).toBe(
      "Every weekday at 08:00 (Europe/Paris)",
    );
  });
});

describe("checkRepeat", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  it("refuses rules that run more often than the minimum interval, whatever their form", () => {
    expect(checkRepeat("*/5 * * * *", "UTC", now)).toMatchObject({ field: "repeat", message: /every 15 minutes/ });
    expect(checkRepeat("0,10 8 * * *", "UTC", now)).toMatchObject({ field: "repeat" });
    expect(checkRepeat("*/15 * * * *", "UTC", now)).toEqual({ cron: "*/15 * * * *" });
  });
  it("refuses what croner cannot read", () => {
    expect(checkRepeat("61 8 * * *", "UTC", now)).toMatchObject({ field: "repeat" });
    expect(checkRepeat("nonsense", "UTC", now)).toMatchObject({ field: "repeat" });
  });
});

describe("checkAt and instantOf", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  it("reads a time without offset in the zone, with one as it says", () => {
    expect(instantOf("2026-12-01T08:00", "Europe/Paris")).toBe("2026-12-01T07:00:00.000Z");
    expect(instantOf("2026-07-01T08:00", "Europe/Paris")).toBe("2026-07-01T06:00:00.000Z");
    expect(instantOf("2026-12-01T08:00:00-05:00", "Europe/Paris")).toBe("2026-12-01T13:00:00.000Z");
    expect(instantOf("2026-02-30T08:00", "UTC")).toBeUndefined();
  });
  it("a one-off must be ahead, and within a year", () => {
    expect(checkAt("2026-11-26T11:00:00Z", "UTC", now)).toMatchObject({ field: "at", message: /past/ });
    expect(checkAt("2028-01-01T00:00:00Z", "UTC", now)).toMatchObject({ field: "at", message: /days ahead/ });
    expect(checkAt("2026-11-27T09:00", "America/New_York", now)).toEqual({ at: "2026-11-27T14:00:00.000Z" });
  });
  it("validates zones with Intl", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
  it("takes IANA zones only: an offset, which Node 22 and workerd accept as a zone, has no DST rules", () => {
    for (const zone of ["+14:00", "-05:00", "+0530", "-03"]) expect(isTimeZone(zone), zone).toBe(false);
    for (const zone of ["UTC", "Etc/GMT-14", "America/New_York", "Australia/Lord_Howe"])
      expect(isTimeZone(zone), zone).toBe(true);
  });
});

describe("a one-off's day and time in words (readDayAt, checkAt)", () => {
  // Thursday 2026-11-26, 13:00 in Paris.
  const now = new Date("2026-11-26T12:00:00Z");
  it.each([
    ["friday at 9", "Europe/Paris", "2026-11-27T08:00:00.000Z"],
    ["on Fri at 7pm", "Europe/Paris", "2026-11-27T18:00:00.000Z"],
    // Today's time has passed: next week's.
    ["thursday at 9", "Europe/Paris", "2026-12-03T08:00:00.000Z"],
    ["Thursday at 18:30", "Europe/Paris", "2026-11-26T17:30:00.000Z"],
    ["tomorrow at 8am", "America/New_York", "2026-11-27T13:00:00.000Z"],
    ["today at 17:00", "UTC", "2026-11-26T17:00:00.000Z"],
  ])("%s in %s → %s", (words, zone, at) => {
    expect(readDayAt(words, zone, now)?.at).toBe(at);
    expect(checkAt(words, zone, now)).toEqual({ at });
  });
  it("counts the days in the zone, not in UTC", () => {
    // 23:30 UTC on Thursday is already Friday 08:30 in Tokyo: "friday at 9" is half an hour away.
    const late = new Date("2026-11-26T23:30:00Z");
    expect(readDayAt("friday at 9", "Asia/Tokyo", late)?.at).toBe("2026-11-27T00:00:00.000Z");
    expect(readDayAt("friday at 9", "UTC", late)?.at).toBe("2026-11-27T09:00:00.000Z");
  });
  it("refuses a passed time today, a plural and other words, saying what it takes", () => {
    expect(checkAt("today at 8", "UTC", now)).toMatchObject({ field: "at", message: /past/ });
    for (const words of ["fridays at 9", "someday at 9", "friday at 25", "friday"]) {
      expect(readDayAt(words, "UTC", now), words).toBeUndefined();
      expect(checkAt(words, "UTC", now)).toMatchObject({ field: "at", message: /"friday at 9"/ });
    }
  });
});

describe("nextRun", () => {
  const weekday8 = { kind: "cron" as const, cron: "0 8 * * 1-5" };
  it("is the next occurrence strictly after now, in the zone", () => {
    // Thursday 2026-11-26, 07:59 in Paris (06:59 UTC) → 08:00 Paris the same day.
    expect(nextRun(weekday8, "Europe/Paris", new Date("2026-11-26T06:59:00Z"))).toBe("2026-11-26T07:00:00.000Z");
    // Exactly at the run: the next one (Friday).
    expect(nextRun(weekday8, "Europe/Paris", new Date("2026-11-26T07:00:00Z"))).toBe("2026-11-27T07:00:00.000Z");
    // Friday after 8 → Monday.
    expect(nextRun(weekday8, "Europe/Paris", new Date("2026-11-27T09:00:00Z"))).toBe("2026-11-30T07:00:00.000Z");
    expect(nextRun(weekday8, "Asia/Tokyo", new Date("2026-11-26T00:00:00Z"))).toBe("2026-11-26T23:00:00.000Z");
  });
  it("follows DST changes", () => {
    const daily = { kind: "cron" as const, cron: "30 9 * * *" };
    // Europe/Paris leaves summer time on 2026-10-25: 09:30 is 07:30 UTC before, 08:30 UTC after.
    expect(nextRun(daily, "Europe/Paris", new Date("2026-10-24T12:00:00Z"))).toBe("2026-10-25T08:30:00.000Z");
    expect(nextRun(daily, "Europe/Paris", new Date("2026-10-23T12:00:00Z"))).toBe("2026-10-24T07:30:00.000Z");
    // New York springs forward on 2026-03-08: 02:30 does not exist that day and is skipped or moved, never twice.
    const night = { kind: "cron" as const, cron: "30 2 * * *" };
    const first = nextRun(night, "America/New_York", new Date("2026-03-07T12:00:00Z"));
    const second = nextRun(night, "America/New_York", new Date(first ?? 0));
    expect(first).not.toBe(second);
    expect(Date.parse(second ?? "") - Date.parse(first ?? "")).toBeGreaterThan(20 * 3600_000);
  });
  it("runs a missed schedule once: the next run after a long outage is one occurrence", () => {
    const afterOutage = new Date("2026-11-30T12:00:00Z");
    expect(nextRun(weekday8, "UTC", afterOutage)).toBe("2026-12-01T08:00:00.000Z");
  });
  it("a one-off has no run once its time passed", () => {
    expect(nextRun({ kind: "once", at: "2026-11-26T10:00:00.000Z" }, "UTC", new Date("2026-11-26T11:00:00Z"))).toBe(
      null,
    );
  });
});

describe("daylight saving: one rule in every zone", () => {
  // Per zone: a wall time in a gap and the wall clock it runs at (the first instant after the gap), and a
  // wall time shown twice with its first occurrence. Spring-forward and fall-back on both hemispheres,
  // a 30-minute change (Lord Howe) and a gap that ends on the next day (Nuuk, 23:00 → 00:00).
  const ZONES = [
    [
      "America/New_York",
      "2026-03-08T02:30",
      "2026-03-08T07:00:00.000Z",
      "03:00",
      "2026-11-01T01:30",
      "2026-11-01T05:30:00.000Z",
    ],
    [
      "Europe/Berlin",
      "2026-03-29T02:30",
      "2026-03-29T01:00:00.000Z",
      "03:00",
      "2026-10-25T02:30",
      "2026-10-25T00:30:00.000Z",
    ],
    [
      "Australia/Lord_Howe",
      "2026-10-04T02:15",
      "2026-10-03T15:30:00.000Z",
      "02:30",
      "2026-04-05T01:45",
      "2026-04-04T14:45:00.000Z",
    ],
    [
      "Australia/Sydney",
      "2026-10-04T02:30",
      "2026-10-03T16:00:00.000Z",
      "03:00",
      "2026-04-05T02:30",
      "2026-04-04T15:30:00.000Z",
    ],
    [
      "America/Nuuk",
      "2026-03-28T23:30",
      "2026-03-29T01:00:00.000Z",
      "00:00 on 2026-03-29",
      "2026-10-24T23:30",
      "2026-10-25T00:30:00.000Z",
    ],
  ] as const;
  const daily = (wall: string) => {
    const [hour, minute] = wall.slice(11, 16).split(":").map(Number);
    return { kind: "cron" as const, cron: `${minute} ${hour} * * *` };
  };
  const hoursBefore = (iso: string, hours: number) => new Date(Date.parse(iso) - hours * 3600_000);

  it.each(ZONES)(
    "%s: a one-off in a gap runs when the clocks jump, one shown twice at its first",
    (zone, gap, gapRun, shown, twice, twiceRun) => {
      expect(instantOf(gap, zone)).toBe(gapRun);
      expect(readAt(gap, zone)?.note).toContain(`does not exist in ${zone}`);
      expect(readAt(gap, zone)?.note).toMatch(new RegExp(`so it runs at ${shown.split(" on ")[0]}`));
      expect(instantOf(twice, zone)).toBe(twiceRun);
      expect(readAt(twice, zone)?.note).toContain(`happens twice in ${zone}`);
      expect(readAt(twice, zone)?.note).toContain(`runs once, at the first ${twice.slice(11, 16)}`);
    },
  );

  it.each(ZONES)(
    "%s: a daily rule at those times runs by the same rule, once a day",
    (zone, gap, gapRun, shown, twice, twiceRun) => {
      for (const [wall, run] of [
        [gap, gapRun],
        [twice, twiceRun],
      ] as const) {
        expect(nextRun(daily(wall), zone, hoursBefore(run, 20)), wall).toBe(run);
        // The next run is the next day's: the moved or repeated time did not run twice.
        const after = nextRun(daily(wall), zone, new Date(run));
        expect(Date.parse(after ?? "") - Date.parse(run), wall).toBeGreaterThan(20 * 3600_000);
      }
      expect(ruleNote(daily(gap).cron, zone, hoursBefore(gapRun, 20))).toContain(
        `${gap.slice(11, 16)} does not exist in ${zone}: the clocks go forward`,
      );
      expect(ruleNote(daily(gap).cron, zone, hoursBefore(gapRun, 20))).toContain(`so that day it runs at ${shown}.`);
      expect(ruleNote(daily(twice).cron, zone, hoursBefore(twiceRun, 20))).toContain(
        `${twice.slice(11, 16)} happens twice in ${zone}: the clocks go back`,
      );
    },
  );

  it("says nothing of a time no change touches, nor of a time given with its offset", () => {
    expect(ruleNote("0 8 * * *", "America/New_York", new Date("2026-03-01T00:00:00Z"))).toBeUndefined();
    expect(readAt("2026-12-01T08:00", "America/New_York")?.note).toBeUndefined();
    expect(readAt("2026-03-08T02:30:00-05:00", "America/New_York")).toEqual({ at: "2026-03-08T07:30:00.000Z" });
  });

  it("keeps a rhythm to real time: every 30 minutes skips a gap's times and runs a repeated hour's twice", () => {
    const every30 = "*/30 * * * *";
    const runs = (from: string, n: number) =>
      nextRuns(every30, "America/New_York", new Date(from), n).map((d) => d.toISOString());
    // 01:30 EST, then 03:00 EDT: 02:00 and 02:30 do not exist.
    expect(runs("2026-03-08T06:15:00Z", 2)).toEqual(["2026-03-08T06:30:00.000Z", "2026-03-08T07:00:00.000Z"]);
    // 01:30 EDT, 01:00 EST, 01:30 EST: half an hour apart all along.
    expect(runs("2026-11-01T05:15:00Z", 3)).toEqual([
      "2026-11-01T05:30:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T06:30:00.000Z",
    ]);
    expect(ruleNote(every30, "America/New_York", new Date("2026-03-01T00:00:00Z"))).toBeUndefined();
  });
});
