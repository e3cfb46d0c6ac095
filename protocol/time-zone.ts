// The user's time zone (docs/protocol.md "Schedules"): an IANA name the runtime knows, which the
// browser reports once per session and a schedule is read in.
import { z } from "zod";

/**
 * Whether the runtime knows the IANA zone (Intl is the authority on both ends). Runtimes with ES2024's
 * offset zones also take "+14:00", which names no place and so no daylight-saving rules: refused.
 */
export function isTimeZone(zone: string): boolean {
  try {
    return !/^[+-]/.test(new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone);
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
