// Schedules' rules (protocol/schedules.ts, core/schedule-times.ts): friendly forms normalized to cron, the
// limits, and the next occurrence across time zones and DST changes (croner's arithmetic).
import { describe, expect, it } from "vitest";
import { checkAt, checkRepeat, instantOf, nextRun } from "../../core/schedule-times";
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
