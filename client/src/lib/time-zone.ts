// The user's time zone, which the browser reports once per session (syncTimeZone, from the Shell) so the
// agent's `schedule` tool reads "Friday at 9" in it. Apart from use-schedules.ts so the first load does
// not carry the Schedules page's schemas.
import { TimeZoneAnswerSchema } from "../../../protocol";
import { requestJson } from "./api";

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

const SYNCED_KEY = "oracle.time-zone-synced";

/** Tells the server the browser's time zone, once per session (and again when it changed). */
export async function syncTimeZone(): Promise<void> {
  const zone = browserTimeZone();
  try {
    if (sessionStorage.getItem(SYNCED_KEY) === zone) return;
  } catch {
    // storage blocked: sync anyway
  }
  const result = await requestJson("/api/settings/time-zone", TimeZoneAnswerSchema, "PUT", { time_zone: zone });
  if (result.ok) {
    try {
      sessionStorage.setItem(SYNCED_KEY, zone);
    } catch {
      // nothing to remember it in
    }
  }
}
