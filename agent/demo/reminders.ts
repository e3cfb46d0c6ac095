// "Remind me on Friday at 9", "remind me every day at 8 to water the plants": what the demo reads as a
// schedule to create with the `schedule` tool (the rule in the words the tool takes, which the server
// reads in the user's time zone), and the message a run of it posts, which the demo answers as a reminder.
import { clean, clip } from "./text";

/** The `schedule` tool's create arguments for a reminder: the text it posts and when. */
export type ReminderPlan = { text: string; name?: string } & ({ at: string } | { repeat: string });

/** What a reminder posts: the demo knows it again when the run comes (reminderText). */
const PREFIX = "Reminder: ";
const DAY = String.raw`(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat|sun)\b`;
const CLOCK = String.raw`\d{1,2}(?::\d{2})?(?:\s*[ap]m\b)?`;
const REPEAT = new RegExp(String.raw`\bevery\s+(hour|day|weekday|weekend|${DAY}(?:\s*(?:,|and)\s*${DAY})*)\b`, "i");
// A whole word ("friday", "tomorrow") anywhere; a short one only as "on fri at …", as "sun" or "sat" are words too.
const WHOLE_DAY = /\b(?:on\s+)?(today|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;
const SHORT_DAY = /\bon\s+(mon|tue|wed|thu|fri|sat|sun)\b(?=\s+at\b)/i;
const AT = new RegExp(String.raw`\bat\s+(${CLOCK})(?!:?\d)`, "i");
const ASKED = /\bremind me\b/i;

/** Whether the message asks to be reminded. */
export const asksReminder = (text: string) => ASKED.test(text);

/**
 * The reminder a message asks for, or undefined when it says no time ("remind me to call mum"): the
 * subject is what is left of the words after "remind me" once the time is taken out ("to water the plants").
 */
export function reminderIn(message: string): ReminderPlan | undefined {
  const asked = ASKED.exec(message);
  if (!asked) return undefined;
  let rest = message.slice(asked.index + asked[0].length);
  const take = (pattern: RegExp): string | undefined => {
    const m = pattern.exec(rest);
    if (!m) return undefined;
    rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`;
    return m[1]?.toLowerCase().replace(/\s+/g, " ");
  };
  const every = take(REPEAT);
  const day = every ? undefined : (take(WHOLE_DAY) ?? take(SHORT_DAY));
  const clock = take(AT);
  const words = rest.replace(/\s+/g, " ").trim();
  const subject = clip(clean(words.replace(/^(?:[,:;-]\s*)*(?:(?:to|about|that|of)\s+)?/i, "")), 200);
  // Without a subject the schedule is called "Reminder" (else its name is its text's first line).
  const what = subject
    ? { text: `${PREFIX}${subject}` }
    : { text: `${PREFIX}this is the one you asked for.`, name: "Reminder" };
  if (every === "hour") return { ...what, repeat: "every hour" };
  if (every) return { ...what, repeat: `every ${every} at ${clock ?? "9:00"}` };
  if (day || clock) return { ...what, at: `${day ?? "today"} at ${clock ?? "9:00"}` };
  return undefined;
}

/** A reminder's own run ("Reminder: water the plants"): the subject to remind of, or undefined. */
export function reminderText(message: string): string | undefined {
  return message.startsWith(PREFIX) ? message.slice(PREFIX.length).trim() : undefined;
}

/** "Once, 2026-12-04 09:00 (Europe/Paris)" → "on Friday 2026-12-04 at 09:00 (Europe/Paris)"; a rule as it is, lower-cased. */
export function whenInWords(rule: string): string {
  const once = /^Once, (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) (.*)$/.exec(rule);
  if (!once) return rule.charAt(0).toLowerCase() + rule.slice(1);
  const weekday = new Date(`${once[1]}T00:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
  return `on ${weekday} ${once[1]} at ${once[2]} ${once[3]}`;
}
