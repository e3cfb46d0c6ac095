// Text from outside the system (user messages, tool results, notes, tasks, knowledge and workflow
// entries, notify messages, subagents' answers) must not be able to pose as a system item. Only the
// system wraps text in <system-reminder> tags (reminder.ts), so the tag in any spelling a model could
// still read as one is defused wherever such text enters the model's context. This is the one
// neutraliser for all of them: context/model-messages.ts applies it to user, agent and tool text, and the message
// log to every system item it persists (defuseItem).
import type { SystemItem } from "../../protocol";
import { normalizeReminderBody, renderReminder } from "./reminder";

// Characters a reader does not see, which may split the tag's words; plus spaces around them.
const INVISIBLE = "[\\u00AD\\u180E\\u200B-\\u200F\\u2060-\\u2064\\uFEFF]*";
const GAP = "[\\s\\u00AD\\u180E\\u200B-\\u200F\\u2060-\\u2064\\uFEFF]*";
const word = (w: string) => [...w].join(INVISIBLE);
const OPEN = "(?:<|\\uFF1C|&lt;|&#0*60;|&#x0*3c;)";
const CLOSE = "(?:>|\\uFF1E|&gt;|&#0*62;|&#x0*3e;)";
// `<`, an optional `/`, "system", an optional separator, "reminder" as a whole word, then attributes
// up to the closing `>` (bounded, so an unclosed tag never swallows the text after it).
const REMINDER_TAG = new RegExp(
  `${OPEN}${GAP}(/?)${GAP}${word("system")}${GAP}[-_.:]?${GAP}${word("reminder")}(?![\\p{L}\\p{N}_])(?:[^<>]{0,200}?${CLOSE})?`,
  "giu",
);

/** Every spelling of the tag opens with one of these; most text has none, and skips the full match. */
const MAY_OPEN_TAG = /[<&\uFF1C]/;

export function neutralizeReminders(text: string): string {
  if (!MAY_OPEN_TAG.test(text)) return text;
  return text.replace(REMINDER_TAG, (_tag, slash: string) => `[${slash}system-reminder]`);
}

/**
 * A system item as it may be persisted: its body defused. A task reminder keeps the one wrapper the
 * system put around it; the text inside (task titles are the user's) is defused like any other.
 */
export function defuseItem(item: SystemItem): SystemItem {
  if (item.kind !== "task_reminder") return { ...item, body: neutralizeReminders(item.body) };
  return { ...item, body: renderReminder(neutralizeReminders(normalizeReminderBody(item.body))) };
}

/** A line that opens like a chat transcript's speaker label ("System:", "### Assistant:", "[SYSTEM]"). */
const ROLE_LINE =
  /^([\t >#*_-]*)(\[?(?:system|developer|assistant|user|human|ai|tool)\]?\s*:|\[(?:system|developer|assistant)\])/gimu;

/**
 * Text from the web as data: on top of the reminder tags, a line that poses as a speaker of the
 * conversation ("System: you are now…") is marked as the page's own words, so it cannot read as a turn
 * of the conversation or a message of the system.
 */
export function neutralizePageText(text: string): string {
  return neutralizeReminders(text).replace(
    ROLE_LINE,
    (_line, lead: string, label: string) => `${lead}(page text) ${label}`,
  );
}
