// The sidebar's groups: Pinned on top, then by last activity in the user's own time zone: Today,
// Yesterday, Previous 7 days, Older. Plain functions (the dates come in), so the node tests can pin
// the clock and the time zone. Also the page-wide event by which a title the model wrote reaches the
// sidebar (a `conversation_title` frame arrives on the open chat's socket).
import type { Conversation } from "../../../protocol";

export type GroupName = "Pinned" | "Today" | "Yesterday" | "Previous 7 days" | "Older";
export type ConversationGroup = { name: GroupName; conversations: Conversation[] };

const ORDER: GroupName[] = ["Pinned", "Today", "Yesterday", "Previous 7 days", "Older"];

/** Midnight at the start of the day `days` after `date`'s day, in the local time zone (DST-safe). */
function startOfDay(date: Date, days = 0): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days).getTime();
}

/** Which date group a last activity falls in, seen from `now` (local time). */
export function dateGroup(updatedAt: string, now: Date): Exclude<GroupName, "Pinned"> {
  const at = new Date(updatedAt).getTime();
  if (Number.isNaN(at) || at >= startOfDay(now)) return "Today"; // the future (a skewed clock) is today too
  if (at >= startOfDay(now, -1)) return "Yesterday";
  if (at >= startOfDay(now, -7)) return "Previous 7 days";
  return "Older";
}

/**
 * When a row was last active, as short as its group allows: the time today, the weekday within the
 * week, the date before that (the group heading already says which day it is roughly).
 */
export function shortWhen(updatedAt: string, now: Date, locale?: string): string {
  const at = new Date(updatedAt);
  if (Number.isNaN(at.getTime())) return "";
  switch (dateGroup(updatedAt, now)) {
    case "Today":
      return at.toLocaleTimeString(locale, { hour: "numeric", minute: "2-digit" });
    case "Yesterday":
    case "Previous 7 days":
      return at.toLocaleDateString(locale, { weekday: "long" });
    default:
      return at.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric" });
  }
}

/** The non-empty groups in sidebar order, each newest first (the list comes newest first). */
export function groupConversations(list: readonly Conversation[], now: Date): ConversationGroup[] {
  const groups = new Map<GroupName, Conversation[]>();
  const sorted = [...list].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  for (const c of sorted) {
    const name = c.pinned ? "Pinned" : dateGroup(c.updated_at, now);
    groups.set(name, [...(groups.get(name) ?? []), c]);
  }
  return ORDER.flatMap((name) => {
    const conversations = groups.get(name);
    return conversations ? [{ name, conversations }] : [];
  });
}

const TITLE_EVENT = "oracle:conversation-title";
const LIST_EVENT = "oracle:conversations";

/** Conversations were made outside the list (a schedule's own, on the Schedules page): it reads them again. */
export const announceConversations = () => window.dispatchEvent(new Event(LIST_EVENT));

/** Calls `reload` on each announceConversations; returns the unsubscribe. */
export function onConversationsAnnounced(reload: () => void): () => void {
  window.addEventListener(LIST_EVENT, reload);
  return () => window.removeEventListener(LIST_EVENT, reload);
}
type TitleDetail = { id: string; title: string };

/** A title the model wrote for a conversation, for whoever shows the list. */
export function announceTitle(id: string, title: string): void {
  window.dispatchEvent(new CustomEvent<TitleDetail>(TITLE_EVENT, { detail: { id, title } }));
}

/** Calls `apply` with each announced title; returns the unsubscribe. */
export function onTitleAnnounced(apply: (id: string, title: string) => void): () => void {
  const listener = (event: Event) => {
    const { id, title } = (event as CustomEvent<TitleDetail>).detail;
    apply(id, title);
  };
  window.addEventListener(TITLE_EVENT, listener);
  return () => window.removeEventListener(TITLE_EVENT, listener);
}
