// A schedule as its forms edit it (a draft: the rule as typed, the date as the input's wall time), and
// how a schedule reads in a row: its next and last runs in this browser's time.
import { describeCron, wallTime } from "../../../../protocol/schedules";
import type { Schedule } from "../../lib/use-schedules";
import { resolveTimeZone } from "./time-zones";

export type Draft = {
  name: string;
  text: string;
  kind: "once" | "cron";
  at: string;
  repeat: string;
  time_zone: string;
};

export const EMPTY: Draft = {
  name: "",
  text: "",
  kind: "cron",
  at: "",
  repeat: "every weekday at 08:00",
  time_zone: "",
};

/** An instant in this browser's time: "Thu, Nov 27, 08:00". */
export const localTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

export const LAST: Record<NonNullable<Schedule["last_status"]>, string> = {
  queued: "waiting for the running turn",
  started: "ran",
  skipped: "skipped",
  failed: "failed",
};

/** A cron rule in the form's words when it has them ("every weekday at 08:00"), else the expression. */
function ruleWords(cron: string): string {
  const words = describeCron(cron);
  return words.startsWith("Every") ? `e${words.slice(1)}` : cron;
}

/** The body a draft sends: `at` as wall time in the chosen zone, or `repeat`. */
export function ruleOf(draft: Draft): { at: string } | { repeat: string } {
  return draft.kind === "once" ? { at: draft.at } : { repeat: draft.repeat.trim() };
}

/** The zone a draft is saved in: what was typed read as an IANA zone ("Paris" → Europe/Paris), `fallback` when empty. */
export function draftZone(draft: Draft, fallback: string): { zone: string } | { problem: string } {
  if (!draft.time_zone.trim()) return { zone: fallback };
  const zone = resolveTimeZone(draft.time_zone);
  return zone
    ? { zone }
    : {
        problem: `“${draft.time_zone.trim()}” is not a time zone: pick one from the list, or type a city such as Paris.`,
      };
}

/** A saved schedule as the edit form starts it. */
export function draftOf(s: Schedule): Draft {
  return {
    name: s.name,
    text: s.text,
    kind: s.kind,
    at: s.at ? wallTime(s.at, s.time_zone).replace(" ", "T") : "",
    repeat: s.cron ? ruleWords(s.cron) : "",
    time_zone: s.time_zone,
  };
}
