// Scheduled runs (docs/protocol.md "Schedules"): a message posted into one of the user's conversations at
// a time, once or on a cron rule, as if the user had typed it. The shapes the routes, the agent's
// `schedule` tool and the client share, the limits, and the friendly rules ("every weekday at 08:00")
// turned into cron. Pure string work: the occurrences themselves are computed with croner on the server
// (core/schedule-times.ts), so the client bundle does not carry it.
import { z } from "zod";
import { TimeZoneSchema } from "./time-zone";

/** Schedules per user. */
export const MAX_SCHEDULES = 20;
/** The least time between two runs of a recurring schedule. */
export const MIN_SCHEDULE_INTERVAL_MINUTES = 15;
/** How far ahead a one-off may be. */
export const MAX_SCHEDULE_AHEAD_DAYS = 366;
export const MAX_SCHEDULE_NAME = 100;
export const MAX_SCHEDULE_TEXT = 4000;

export const ScheduleStatusSchema = z.enum(["queued", "started", "skipped", "failed"]);
export type ScheduleStatus = z.infer<typeof ScheduleStatusSchema>;

const NameSchema = z.string().trim().min(1, "name is empty").max(MAX_SCHEDULE_NAME).describe("A short label");
const TextSchema = z
  .string()
  .trim()
  .min(1, "text is empty")
  .max(MAX_SCHEDULE_TEXT)
  .describe("The message posted as the user's; starting with /slug runs that saved workflow");
const AtSchema = z
  .string()
  .max(40)
  .describe(
    'A one-off\'s time: an ISO date-time, with an offset (2026-12-01T08:00:00Z) or without one (2026-12-01T08:00, read in time_zone), or the next such day in time_zone ("friday at 9", "tomorrow at 8:30")',
  );
const RepeatSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe(
    'A recurring rule: a 5-field cron expression ("0 8 * * 1-5") or "every day at 18:30", "every weekday at 08:00", "every monday at 9:00", "every hour"',
  );

/**
 * POST /api/schedules: exactly one of `at` (once) and `repeat` (recurring). Without `conversation_id` the
 * schedule posts into a new conversation of its own, named after it; with `project_id` instead, into a
 * new conversation of that project at every run.
 */
export const ScheduleCreateSchema = z
  .object({
    conversation_id: z.string().min(1).max(100).optional(),
    project_id: z.string().min(1).max(100).optional(),
    name: NameSchema.optional(),
    text: TextSchema,
    at: AtSchema.optional(),
    repeat: RepeatSchema.optional(),
    time_zone: TimeZoneSchema.optional(),
    paused: z.boolean().optional(),
  })
  .refine((b) => (b.at === undefined) !== (b.repeat === undefined), {
    message: "give exactly one of at (once) and repeat (recurring)",
    path: ["at"],
  })
  .refine((b) => b.conversation_id === undefined || b.project_id === undefined, {
    message: "give at most one of conversation_id and project_id",
    path: ["project_id"],
  });
export type ScheduleCreate = z.infer<typeof ScheduleCreateSchema>;

/** PATCH /api/schedules/:id: any subset; `at` or `repeat` replaces the rule (and its kind). */
export const SchedulePatchSchema = z
  .object({
    name: NameSchema.optional(),
    text: TextSchema.optional(),
    at: AtSchema.optional(),
    repeat: RepeatSchema.optional(),
    time_zone: TimeZoneSchema.optional(),
    paused: z.boolean().optional(),
  })
  .refine((b) => !(b.at !== undefined && b.repeat !== undefined), {
    message: "give at most one of at and repeat",
    path: ["at"],
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "give at least one of name, text, at, repeat, time_zone, paused",
  });
export type SchedulePatch = z.infer<typeof SchedulePatchSchema>;

/** A schedule as the API answers it. */
export const ScheduleSchema = z.object({
  id: z.string(),
  /** The conversation it posts into; for a project's schedule, the one its latest run went into. */
  conversation_id: z.string(),
  /** Set for a project's schedule: each run is a new conversation in that project. */
  project_id: z.string().nullable().optional(),
  /** The conversation's title, for a list across conversations. */
  conversation_title: z.string(),
  name: z.string(),
  text: z.string(),
  kind: z.enum(["once", "cron"]),
  /** A one-off's instant (ISO, UTC). */
  at: z.string().nullable(),
  /** A recurring schedule's 5-field cron expression, read in `time_zone`. */
  cron: z.string().nullable(),
  time_zone: z.string(),
  paused: z.boolean(),
  /** Null when paused, or a one-off that has run. */
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_status: ScheduleStatusSchema.nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * When a time of the rule falls in a daylight-saving gap or repeated hour, when it actually runs, in
   * words: on a recurring rule of times of day always, on a one-off in the answer to the write that set it.
   */
  note: z.string().optional(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;
export const ScheduleListSchema = z.object({ schedules: z.array(ScheduleSchema) });

const DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const DAY_WORDS: Record<string, number> = Object.fromEntries(
  DAYS.flatMap((day, i) => [
    [day, i],
    [`${day}s`, i],
    [day.slice(0, 3), i],
  ]),
);

/** "8", "08:00", "8:30am", "6:30 pm" → [hour, minute], or undefined. */
function parseClock(text: string): [number, number] | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2] ?? "0");
  if (m[3]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[3] === "pm" ? 12 : 0);
  }
  return hour <= 23 && minute <= 59 ? [hour, minute] : undefined;
}

/** A one-off's day and time in words: "friday at 9", "on mon at 18:30", "tomorrow at 8am", "today at 17:00". */
export type DayAt = { day: number | "today" | "tomorrow"; hour: number; minute: number };

/** "friday at 9" → the day (0 = Sunday, or today/tomorrow) and the time of day, or undefined. */
export function parseDayAt(text: string): DayAt | undefined {
  const m = /^(?:on )?(\w+) at (.+)$/.exec(text.trim().toLowerCase().replace(/\s+/g, " "));
  if (!m?.[1] || !m[2]) return undefined;
  // "fridays" asks for a recurring rule (repeat), not for one day.
  const day = m[1] === "today" || m[1] === "tomorrow" ? m[1] : m[1].endsWith("days") ? undefined : DAY_WORDS[m[1]];
  const clock = parseClock(m[2]);
  return day === undefined || !clock ? undefined : { day, hour: clock[0], minute: clock[1] };
}

/** "monday", "mon and fri", "monday, wednesday" → cron's day-of-week list, or undefined. */
function parseDays(text: string): string | undefined {
  if (text === "day") return "*";
  if (text === "weekday") return "1-5";
  if (text === "weekend") return "0,6";
  const days = text.split(/\s*(?:,|\band\b)\s*/).filter(Boolean);
  const numbers = days.map((d) => DAY_WORDS[d]);
  if (!numbers.length || numbers.some((n) => n === undefined)) return undefined;
  return [...new Set(numbers as number[])].sort((a, b) => a - b).join(",");
}

/**
 * A recurring rule as a 5-field cron expression: a cron expression is kept (its fields checked on the
 * server), a friendly form is translated. Undefined when it is neither.
 */
export function normalizeRepeat(rule: string): string | undefined {
  const text = rule.trim().toLowerCase().replace(/\s+/g, " ");
  if (/^\S+ \S+ \S+ \S+ \S+$/.test(text) && !text.startsWith("every")) return text;
  if (text === "every hour" || text === "hourly") return "0 * * * *";
  const m = /^every (.+?) at (.+)$/.exec(text);
  if (!m?.[1] || !m[2]) return undefined;
  const days = parseDays(m[1]);
  const clock = parseClock(m[2]);
  if (days === undefined || !clock) return undefined;
  return `${clock[1]} ${clock[0]} * * ${days}`;
}

const pad = (n: number) => String(n).padStart(2, "0");
const NAMED_DAYS: Record<string, string> = { "*": "day", "1-5": "weekday", "0,6": "weekend" };

/** A cron rule in plain words when it is one of the friendly forms ("Every weekday at 08:00"), else the expression. */
export function describeCron(cron: string): string {
  const [minute, hour, dom, month, dow] = cron.split(" ");
  if (cron === "0 * * * *") return "Every hour";
  const simple = /^\d{1,2}$/;
  if (minute && hour && simple.test(minute) && simple.test(hour) && dom === "*" && month === "*" && dow) {
    const at = `${pad(Number(hour))}:${pad(Number(minute))}`;
    const named = NAMED_DAYS[dow];
    if (named) return `Every ${named} at ${at}`;
    if (/^[0-6](,[0-6])*$/.test(dow)) {
      const names = dow.split(",").map((d) => {
        const day = DAYS[Number(d)] ?? "";
        return day.charAt(0).toUpperCase() + day.slice(1);
      });
      return `Every ${names.join(", ")} at ${at}`;
    }
  }
  return `Cron “${cron}”`;
}

/** An instant as wall time in a zone: "2026-11-27 08:00". */
export function wallTime(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
}

/** A schedule's rule in plain words, with its zone: "Every weekday at 08:00 (Europe/Paris)". */
export function describeRule(schedule: Pick<Schedule, "kind" | "at" | "cron" | "time_zone">): string {
  const rule =
    schedule.kind === "once" && schedule.at
      ? `Once, ${wallTime(schedule.at, schedule.time_zone)}`
      : describeCron(schedule.cron ?? "");
  return `${rule} (${schedule.time_zone})`;
}

/** A schedule's default name: its text's first line, cut short. */
export function scheduleNameOf(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || "Scheduled message";
}
