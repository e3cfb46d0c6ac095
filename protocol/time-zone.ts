// The user's time zone (docs/protocol.md "Schedules"): an IANA name the runtime knows, which the
// browser reports once per session and a schedule is read in.
import { z } from "zod";

/** Whether the runtime knows the IANA zone (Intl is the authority on both ends). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, "time_zone is not an IANA time zone (e.g. Europe/Paris)")
  .describe("An IANA time zone such as Europe/Paris; default: the user's");

/** PUT /api/settings/time-zone; GET answers it with null when never set. */
export const TimeZoneSettingSchema = z.object({ time_zone: TimeZoneSchema });
export const TimeZoneAnswerSchema = z.object({ time_zone: z.string().nullable() });
