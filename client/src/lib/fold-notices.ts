// Folds repeated System notices in the transcript (issue 26), so they do not swamp it: a notice that
// says again what an earlier card says (an unreachable MCP server at every turn, the same tool failing
// the same way) joins that earlier card, which counts them ("× 3") and lists when on request; and a
// loop incident (the loop warning and the failures of the looping tool in that turn) is one card. A
// view change only: every notice stays persisted and goes to the model as before. Pure, so it can be
// unit-tested; lib/transcript.ts calls it last.
import type { SystemMessage } from "../../../protocol";

/** One notice a card stands for, with the turn it came in (1 for the first question, 0 before any). */
export type NoticeOccurrence = { message: SystemMessage; turn: number };

export type NoticeFold = {
  /** The notices of the same kind, source and subject, oldest first; the card shows the first. */
  repeats: NoticeOccurrence[];
  /** A loop incident's other notices (the looping tool's failures, further loop warnings), oldest first. */
  related: NoticeOccurrence[];
};

/** What foldNotices reads and writes: the transcript's items; only `system` ones are looked at. */
export type FoldableItem =
  | { kind: "user" }
  | { kind: "system"; message: SystemMessage; fold?: NoticeFold }
  | { kind: "answer" | "group" | "question" | "memory" };

type Notification = Extract<SystemMessage["item"], { kind: "notification" }>;

const LOOP = "loop_detected";
const TOOL_FAILURE = "tool_failure";

/**
 * The payload fields that say what a notice is about, for subscribers whose headline changes from
 * one repeat to the next ("vault_read failed 2 times", "retry 2 of 3"); any other notice is about
 * what its headline says.
 */
const SUBJECT_FIELDS: Record<string, readonly string[]> = {
  tool_failure: ["tool", "error"],
  llm_retry: ["status"],
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function notificationOf(message: SystemMessage): Notification | undefined {
  return message.item.kind === "notification" ? message.item : undefined;
}

/** The rows of a notice's data: one for a single event, several for a batch. */
function rowsOf(item: Notification): Record<string, unknown>[] {
  if (Array.isArray(item.data)) return item.data.filter(isRecord);
  return isRecord(item.data) ? [item.data] : [];
}

/**
 * The key under which repeats of a notice fold together: same subscriber, source and subject. None
 * for what must each stay in its place: external messages (each is news), loop warnings (one card
 * per incident) and every system item that is not a notification (attachments, compaction…).
 */
export function noticeKey(message: SystemMessage): string | null {
  const item = notificationOf(message);
  if (!item || message.source === "External" || item.trigger_ids?.length) return null;
  const subscriber = item.subscriber ?? "";
  if (subscriber === LOOP || subscriber === "external_notify") return null;
  const fields = SUBJECT_FIELDS[subscriber];
  const rows = rowsOf(item);
  const subject =
    fields && rows.length > 0
      ? JSON.stringify(rows.map((row) => fields.map((f) => row[f] ?? null)).sort())
      : item.message.trim();
  return JSON.stringify([subscriber, message.source, message.severity, subject]);
}

/** The tools a notice is about (`tool`, or `tools` of an alternation), from its data. */
export function noticeTools(message: SystemMessage): string[] {
  const item = notificationOf(message);
  if (!item) return [];
  const tools = new Set<string>();
  for (const row of rowsOf(item)) {
    if (typeof row.tool === "string") tools.add(row.tool);
    if (Array.isArray(row.tools)) for (const t of row.tools) if (typeof t === "string") tools.add(t);
  }
  return [...tools];
}

const subscriberOf = (message: SystemMessage) => notificationOf(message)?.subscriber;

type Indexed = { index: number; message: SystemMessage; turn: number };

/**
 * The loop incidents: per turn, its first loop warning leads, and its other loop warnings and the
 * failures of the tools they name (in that turn) join it. Returns lead index → members' indexes.
 */
function loopIncidents(notices: Indexed[]): Map<number, Indexed[]> {
  const incidents = new Map<number, Indexed[]>();
  const byTurn = new Map<number, Indexed[]>();
  for (const n of notices) byTurn.set(n.turn, [...(byTurn.get(n.turn) ?? []), n]);
  for (const inTurn of byTurn.values()) {
    const loops = inTurn.filter((n) => subscriberOf(n.message) === LOOP);
    const [lead, ...others] = loops;
    if (!lead) continue;
    const tools = new Set(loops.flatMap((n) => noticeTools(n.message)));
    const failures = inTurn.filter(
      (n) => subscriberOf(n.message) === TOOL_FAILURE && noticeTools(n.message).some((t) => tools.has(t)),
    );
    incidents.set(
      lead.index,
      [...others, ...failures].sort((a, b) => a.index - b.index),
    );
  }
  return incidents;
}

const occurrence = ({ message, turn }: Indexed): NoticeOccurrence => ({ message, turn });

/**
 * The items with repeated notices folded into their first card (which gets `fold`) and each loop
 * incident as one card where the incident began. Items other than notices are returned as they are.
 */
export function foldNotices<T extends FoldableItem>(items: readonly T[]): T[] {
  const notices: Indexed[] = [];
  let turn = 0;
  items.forEach((item, index) => {
    if (item.kind === "user") turn++;
    else if (item.kind === "system") notices.push({ index, message: item.message, turn });
  });

  const folds = new Map<number, NoticeFold>(); // card index → its fold
  const moved = new Map<number, number>(); // lead index → where its card goes
  const hidden = new Set<number>();

  for (const [leadIndex, members] of loopIncidents(notices)) {
    const lead = notices.find((n) => n.index === leadIndex) as Indexed;
    folds.set(leadIndex, { repeats: [occurrence(lead)], related: members.map(occurrence) });
    for (const m of members) hidden.add(m.index);
    const first = Math.min(leadIndex, ...members.map((m) => m.index));
    if (first !== leadIndex) moved.set(leadIndex, first);
  }

  const firstByKey = new Map<string, number>();
  for (const notice of notices) {
    if (hidden.has(notice.index) || folds.has(notice.index)) continue;
    const key = noticeKey(notice.message);
    if (key === null) continue;
    const first = firstByKey.get(key);
    if (first === undefined) {
      firstByKey.set(key, notice.index);
      folds.set(notice.index, { repeats: [occurrence(notice)], related: [] });
    } else {
      folds.get(first)?.repeats.push(occurrence(notice));
      hidden.add(notice.index);
    }
  }

  const out: T[] = [];
  const placeAt = new Map([...moved].map(([lead, at]) => [at, lead]));
  items.forEach((item, index) => {
    const lead = placeAt.get(index);
    if (lead !== undefined) out.push(withFold(items[lead] as T, folds.get(lead)));
    if (hidden.has(index) || moved.has(index)) return;
    out.push(folds.has(index) ? withFold(item, folds.get(index)) : item);
  });
  return out;
}

/** The card with its fold, when the fold holds more than the card's own notice. */
function withFold<T extends FoldableItem>(item: T, fold: NoticeFold | undefined): T {
  if (!fold || (fold.repeats.length === 1 && fold.related.length === 0)) return item;
  return { ...item, fold };
}
