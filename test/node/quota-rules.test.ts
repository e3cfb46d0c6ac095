// The quota's rules without storage (core/quota-rules.ts): the UTC periods and when they reset, an admin's
// override over the operator's defaults, which warning a total crosses, and the words a user reads.
import { describe, expect, it } from "vitest";
import {
  defaultLimits,
  effectiveLimits,
  newWarning,
  percentUsed,
  periodsAt,
  quotaReachedWords,
  reachedLimit,
  resetsAt,
  timeUntil,
} from "../../core/quota-rules";

const at = (iso: string) => Date.parse(iso);

describe("quota rules", () => {
  it("counts in UTC days and months, each reset at its end", () => {
    const now = at("2026-12-31T23:30:00Z");
    expect(periodsAt(now)).toEqual({ day: "2026-12-31", month: "2026-12" });
    expect(resetsAt("day", now)).toBe("2027-01-01T00:00:00.000Z");
    expect(resetsAt("month", at("2026-02-10T08:00:00Z"))).toBe("2026-03-01T00:00:00.000Z");
  });

  it("takes the defaults from the QUOTA_* variables, ignoring what is not a number of 0 or more", () => {
    expect(
      defaultLimits({
        QUOTA_DAILY_TOKENS: "50000.7",
        QUOTA_MONTHLY_COST: "12.5",
        QUOTA_DAILY_COST: "-1",
        QUOTA_MONTHLY_TOKENS: "x",
      }),
    ).toEqual({ daily_tokens: 50_000, monthly_cost: 12.5 });
    expect(defaultLimits({})).toEqual({});
  });

  it("lays an admin's override over the defaults: a number replaces, null lifts, absent keeps", () => {
    const defaults = { daily_tokens: 1000, monthly_tokens: 20_000 };
    expect(effectiveLimits(defaults, { daily_tokens: 5, monthly_tokens: null, daily_cost: 2 })).toEqual({
      daily_tokens: 5,
      daily_cost: 2,
    });
    expect(effectiveLimits(defaults, {})).toEqual(defaults);
  });

  it("reaches a limit at its value (0 at once), and warns at 80% and 95% only once each, never at 100%", () => {
    const limits = { daily_tokens: 1000, monthly_cost: 10 };
    expect(reachedLimit("day", { tokens: 999, cost: 0 }, limits)).toBeUndefined();
    expect(reachedLimit("day", { tokens: 1000, cost: 0 }, limits)).toEqual({ kind: "tokens", limit: 1000, used: 1000 });
    expect(reachedLimit("month", { tokens: 0, cost: 10.5 }, limits)).toMatchObject({ kind: "cost" });
    expect(reachedLimit("day", { tokens: 0, cost: 0 }, { daily_tokens: 0 })).toBeDefined();
    expect(percentUsed("day", { tokens: 850, cost: 0 }, limits)).toBe(85);
    expect(newWarning(85, 0)).toBe(80);
    expect(newWarning(85, 80)).toBeUndefined();
    expect(newWarning(97, 80)).toBe(95);
    expect(newWarning(97, 0)).toBe(95);
    expect(newWarning(100, 0)).toBeUndefined();
  });

  it("says which quota ran out and when it resets, in UTC and from now", () => {
    const now = at("2026-11-28T18:40:00Z");
    expect(quotaReachedWords("day", { kind: "tokens", limit: 50_000 }, now)).toBe(
      "You have used today's quota of 50,000 tokens on this server's models. It resets at 00:00 UTC (in 5 h 20 min). Your own model providers (Settings → Models) are not counted.",
    );
    expect(quotaReachedWords("month", { kind: "cost", limit: 5 }, now)).toContain(
      "this month's quota of 5.00 in cost on this server's models. It resets at 2026-12-01 00:00 UTC (in 2 days)",
    );
    expect(timeUntil("2026-11-28T18:52:00Z", now)).toBe("in 12 min");
  });
});
