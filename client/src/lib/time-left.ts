// A question's deadline in plain words ("about 5 minutes left", "45 seconds left") rather than a count
// of seconds: a reader wants the rough size of the time left, and exact seconds only near the end.
import { plural } from "./plural";

/** How long `seconds` is, in words: "45 seconds", "about a minute", "about 5 minutes", "about 2 hours". */
export function durationInWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return plural(s, "second");
  if (s < 90) return s === 60 ? "1 minute" : "about a minute";
  const minutes = Math.round(s / 60);
  if (minutes < 90) return `${s % 60 === 0 ? "" : "about "}${plural(minutes, "minute")}`;
  const hours = Math.round(minutes / 60);
  return `${minutes % 60 === 0 ? "" : "about "}${plural(hours, "hour")}`;
}

/** The time left before a deadline, in words: "about 5 minutes left", "1 second left", "no time left". */
export function timeLeftInWords(seconds: number): string {
  return seconds <= 0 ? "no time left" : `${durationInWords(seconds)} left`;
}
