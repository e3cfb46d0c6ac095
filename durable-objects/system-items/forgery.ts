// Text from users, notes and tools must not be able to pose as a system item: a literal reminder tag
// in such text is defused before the model sees it.
const REMINDER_TAG = /<(\/?)\s*system-reminder\s*>/gi;

export function neutralizeReminders(text: string): string {
  return text.replace(REMINDER_TAG, (_tag, slash: string) => `[${slash}system-reminder]`);
}
