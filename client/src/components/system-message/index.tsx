// A persisted system message (seed 000 FR-022…024): what the system told the agent, shown apart from
// user and agent turns (its own card, a "System" label, where it comes from in plain words, a
// severity colour). Read-only by design: it records what happened, so it has no reply or edit actions.
// A card may stand for several notices (lib/fold-notices.ts): repeats of it show as "× 3" and a loop
// incident's other notices as one line; either opens, on click, to when each came. The card says what
// happened in the user's words; the internal names (source, subscriber, priority, a pod's name), the
// notice's raw data and what the model read (the item's body, verbatim) sit under Details, one click away.
import { useState } from "preact/hooks";
import type { SystemMessage as Message, Severity } from "../../../../protocol";
import type { NoticeFold, NoticeOccurrence } from "../../lib/fold-notices";
import { noticeReason, shownHeadline } from "../../lib/notification-content";
import { plainSource, severityWords } from "../../lib/system-text";
import { FactsDetails } from "../../ui/facts-details";
import { MessageActions } from "../message-actions";
import { lazyPart } from "../shell/lazy";
import { SystemItemBody } from "../system-item-body";
import style from "./style.module.css";

/** What Details holds (internal names, the raw data, what the model read): a chunk of its own, loaded as the first card shows. */
const details = () => import("../system-details");
const SystemFacts = lazyPart(() => details().then((m) => m.SystemFacts));
const SystemDetailsMore = lazyPart(() => details().then((m) => m.SystemDetailsMore));

const SEVERITY_ICONS: Record<Severity, string> = {
  debug: "·",
  info: "ℹ",
  warning: "⚠",
  error: "✖",
  critical: "‼",
};
const SEVERITY_RANK: Record<Severity, number> = { debug: 0, info: 1, warning: 2, error: 3, critical: 4 };

/** The most severe of the card's notices: a loop incident with failures in it reads as an error. */
function cardSeverity(message: Message, fold?: NoticeFold): Severity {
  const all = [message, ...(fold?.related.map((r) => r.message) ?? [])];
  return all.reduce<Severity>(
    (worst, m) => (SEVERITY_RANK[m.severity] > SEVERITY_RANK[worst] ? m.severity : worst),
    "debug",
  );
}

/** A notice's one line: its headline (for a notification) and why, else its own body's first line. */
function noticeLine(message: Message): string {
  const { item } = message;
  if (item.kind !== "notification") return item.body.split("\n", 1)[0] ?? "";
  const reason = noticeReason(item);
  return reason ? `${shownHeadline(item)}: ${reason}` : shownHeadline(item);
}

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** When each notice came, and what it said where that differs from the card's own line. */
function Occurrences({ id, fold, shown }: { id: string; fold: NoticeFold; shown: string }) {
  const all: NoticeOccurrence[] = [...fold.repeats, ...fold.related].sort((a, b) => a.message.seq - b.message.seq);
  return (
    <ol id={id} class={style.occurrences} data-testid="notice-occurrences">
      {all.map(({ message, turn }) => {
        const line = noticeLine(message);
        return (
          <li key={message.seq} data-testid="notice-occurrence" data-seq={message.seq}>
            <span class={style.when}>
              {turn > 0 ? `Turn ${turn} · ` : ""}
              <time dateTime={message.created_at}>{timeOf(message.created_at)}</time>
            </span>
            {line !== shown && ` ${line}`}
          </li>
        );
      })}
    </ol>
  );
}

/** The button that opens the fold: "× 3" for repeats, else how many notices the incident holds. */
function foldLabel(fold: NoticeFold): { text: string; label: string } {
  const repeats = fold.repeats.length;
  const total = repeats + fold.related.length;
  if (fold.related.length === 0) return { text: `× ${repeats}`, label: `Shown ${repeats} times: list when` };
  return { text: `${total} notices`, label: `${total} notices about this: list them` };
}

export function SystemMessage({ message, compact, fold }: { message: Message; compact?: boolean; fold?: NoticeFold }) {
  const [open, setOpen] = useState(false);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const { item } = message;
  const severity = cardSeverity(message, fold);
  const source = plainSource(message.source);
  const copyText = item.kind === "notification" ? `${item.message}\n\n${item.body}` : item.body;
  const lastRelated = fold?.related.at(-1)?.message;
  const listId = `notices-${message.seq}`;
  const label = fold && foldLabel(fold);
  return (
    <div class={style.wrap}>
      <article
        class={`${style.card} ${style[severity]}`}
        data-role="system"
        data-seq={message.seq}
        data-kind={item.kind}
        data-severity={severity}
        data-source={message.source}
        data-subscriber={item.kind === "notification" ? item.subscriber : undefined}
        data-count={fold?.repeats.length ?? 1}
        data-notices={fold ? fold.repeats.length + fold.related.length : 1}
        aria-label={`System message about ${source} (${severityWords(severity)})`}
      >
        <header class={style.header}>
          <span class={style.icon} title={severityWords(severity)} aria-hidden="true">
            {SEVERITY_ICONS[severity]}
          </span>
          <span class={style.label}>System</span>
          <span class={style.dot} aria-hidden="true">
            ·
          </span>
          <span class={style.source} data-testid="system-source">
            {source}
          </span>
          {label && (
            <button
              type="button"
              class={style.count}
              aria-expanded={open}
              aria-controls={listId}
              aria-label={label.label}
              title={label.label}
              onClick={() => setOpen(!open)}
              data-testid="notice-toggle"
            >
              {label.text}
            </button>
          )}
        </header>
        <div class={style.body}>
          <SystemItemBody item={item} />
          {lastRelated && (
            <p class={style.related} data-testid="notice-related">
              {noticeLine(lastRelated)}
            </p>
          )}
        </div>
        {fold && open && <Occurrences id={listId} fold={fold} shown={noticeLine(message)} />}
        <FactsDetails
          testid="system-details"
          class={style.details}
          onToggle={setDetailsOpen}
          after={<SystemDetailsMore message={message} open={detailsOpen} />}
        >
          <SystemFacts message={message} />
        </FactsDetails>
      </article>
      {!compact && <MessageActions createdAt={message.created_at} copyText={copyText} />}
    </div>
  );
}
