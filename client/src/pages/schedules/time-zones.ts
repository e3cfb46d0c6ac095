// The time zone field's suggestions and how what was typed in it is read: an IANA zone in any case
// ("europe/paris"), or a city as people write it ("Paris", "new york") read as the zone it names
// (Europe/Paris, America/New_York). The server takes IANA names only (protocol/time-zone.ts).

/** The id of the page's one list of zones, which every time zone field suggests from. */
export const ZONE_LIST_ID = "schedule-time-zones";

let listed: readonly string[] | undefined;

/** The IANA zones this browser lists (Intl), read once. */
export function knownZones(): readonly string[] {
  listed ??= typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return listed;
}

/** A zone Intl knows though it may not list it ("UTC", "Asia/Kolkata"), in its own spelling; never an offset. */
function canonical(zone: string): string | undefined {
  try {
    const name = new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
    return /^[+-]/.test(name) ? undefined : name;
  } catch {
    return undefined;
  }
}

/**
 * What was typed, as the IANA zone to save: a listed zone whatever its case, a city as the zone whose
 * last part it is (case aside, spaces for underscores), or another zone Intl knows. Undefined when it
 * is none of these (or empty).
 */
export function resolveTimeZone(typed: string, zones: readonly string[] = knownZones()): string | undefined {
  const text = typed.trim();
  if (!text) return undefined;
  const lower = text.toLowerCase();
  const named = zones.find((zone) => zone.toLowerCase() === lower);
  if (named) return named;
  const city = lower.replace(/\s+/g, "_");
  return zones.find((zone) => zone.slice(zone.lastIndexOf("/") + 1).toLowerCase() === city) ?? canonical(text);
}
