// The sidebar's groups (client/src/lib/conversation-groups.ts): Pinned, then by last activity in the
// user's local time zone. The node project runs in the machine's zone; TZ is pinned per test file below.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dateGroup, groupConversations, shortWhen } from "../../client/src/lib/conversation-groups";
import type { Conversation } from "../../protocol";

const conversation = (id: string, updated_at: string, pinned = false): Conversation => ({
  id,
  title: id,
  created_at: updated_at,
  updated_at,
  pinned,
});

let zone: string | undefined;
beforeAll(() => {
  zone = process.env.TZ;
  process.env.TZ = "America/Los_Angeles";
});
afterAll(() => {
  process.env.TZ = zone;
});

describe("dateGroup", () => {
  // 2026-03-10 09:00 in Los Angeles (UTC-7 after the DST change on 8 March).
  const now = new Date("2026-03-10T16:00:00Z");

  it("buckets by the local calendar day, not by UTC or by 24-hour spans", () => {
    expect(dateGroup("2026-03-10T07:30:00Z", now)).toBe("Today"); // 00:30 local today
    expect(dateGroup("2026-03-10T06:30:00Z", now)).toBe("Yesterday"); // 23:30 local yesterday, same UTC day
    expect(dateGroup("2026-03-09T07:00:00Z", now)).toBe("Yesterday"); // 00:00 local yesterday
    expect(dateGroup("2026-03-09T06:59:00Z", now)).toBe("Previous 7 days");
    // Across the DST change: 3 March 00:00 local is 08:00 UTC (UTC-8 then).
    expect(dateGroup("2026-03-03T08:00:00Z", now)).toBe("Previous 7 days");
    expect(dateGroup("2026-03-03T07:59:00Z", now)).toBe("Older");
    expect(dateGroup("2026-03-11T01:00:00Z", now)).toBe("Today"); // a skewed clock's future
  });
});

describe("shortWhen", () => {
  const now = new Date("2026-03-10T16:00:00Z"); // Tuesday 09:00 in Los Angeles

  it("says the time today, the weekday this week and the date before, never a bare date for today", () => {
    expect(shortWhen("2026-03-10T15:05:00Z", now, "en-US")).toBe("8:05 AM");
    expect(shortWhen("2026-03-09T20:00:00Z", now, "en-US")).toBe("Monday");
    expect(shortWhen("2026-03-05T20:00:00Z", now, "en-US")).toBe("Thursday");
    expect(shortWhen("2026-02-01T20:00:00Z", now, "en-US")).toBe("Feb 1, 2026");
    expect(shortWhen("not a date", now, "en-US")).toBe("");
  });
});

describe("groupConversations", () => {
  it("puts pinned ones on top, then the date groups in order, newest first, leaving out empty groups", () => {
    const now = new Date("2026-03-10T16:00:00Z");
    const groups = groupConversations(
      [
        conversation("old", "2025-12-01T00:00:00Z"),
        conversation("today-1", "2026-03-10T10:00:00Z"),
        conversation("pinned-old", "2025-01-01T00:00:00Z", true),
        conversation("today-2", "2026-03-10T15:00:00Z"),
        conversation("yesterday", "2026-03-09T20:00:00Z"),
      ],
      now,
    );
    expect(groups.map((g) => [g.name, g.conversations.map((c) => c.id)])).toEqual([
      ["Pinned", ["pinned-old"]],
      ["Today", ["today-2", "today-1"]],
      ["Yesterday", ["yesterday"]],
      ["Older", ["old"]],
    ]);
  });
});
