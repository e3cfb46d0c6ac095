// The small row under a message: when it was written (short local time, the full date on hover) and
// what can be done with it (Copy always; Edit, Regenerate, ‹ n/m › where the caller offers them).
import type { ComponentChildren } from "preact";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import { Icon, type IconName } from "../../ui/icon";
import style from "./style.module.css";

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** "14:03" today, "12 Mar, 14:03" on another day; the full date and time in the tooltip. */
export function Timestamp({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const time = date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const short = sameDay(date, new Date())
    ? time
    : `${date.toLocaleDateString(undefined, { day: "numeric", month: "short" })}, ${time}`;
  return (
    <time class={style.time} dateTime={iso} title={date.toLocaleString()} data-testid="message-time">
      {short}
    </time>
  );
}

export function CopyButton({ text }: { text: string }) {
  const { state, copy } = useCopy(text);
  return (
    <button
      type="button"
      class={`${style.action} ${style.iconic}`}
      onClick={copy}
      data-testid="copy-message"
      aria-label="Copy message"
    >
      <TouchIcon name={state === "copied" ? "check" : "copy"} />
      <span class={style.words}>{COPY_LABELS[state]}</span>
    </button>
  );
}

export function MessageActions({
  createdAt,
  copyText,
  align = "start",
  children,
}: {
  createdAt: string;
  copyText: string;
  align?: "start" | "end";
  children?: ComponentChildren;
}) {
  return (
    <div class={`${style.actions} ${align === "end" ? style.end : ""}`} data-testid="message-actions">
      <Timestamp iso={createdAt} />
      <CopyButton text={copyText} />
      {children}
    </div>
  );
}

/** An extra action button in the row, styled like Copy. */
export function ActionButton({
  onClick,
  disabled,
  children,
  testid,
  label,
  expanded,
  title,
  icon,
}: {
  onClick: () => void;
  disabled?: boolean;
  children: ComponentChildren;
  testid: string;
  label?: string;
  /** For a button that shows and hides something (Details). */
  expanded?: boolean;
  /** The tooltip: why a disabled button cannot be used now. */
  title?: string;
  /** Drawn instead of the words on a touch screen, where the row has no room for them. */
  icon?: IconName;
}) {
  return (
    <button
      type="button"
      class={icon ? `${style.action} ${style.iconic}` : style.action}
      onClick={onClick}
      disabled={disabled}
      data-testid={testid}
      aria-label={label}
      title={title}
      aria-expanded={expanded === undefined ? undefined : expanded ? "true" : "false"}
    >
      {icon ? (
        <>
          <TouchIcon name={icon} />
          <span class={style.words}>{children}</span>
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** An action's icon, shown only on a touch screen (with the `iconic` class on its button). */
export function TouchIcon({ name }: { name: IconName }) {
  return (
    <span class={style.touchIcon}>
      <Icon name={name} size="1.15rem" />
    </span>
  );
}

/** The classes of an action whose words give way to an icon on a touch screen. */
export const iconicAction = { button: `${style.action} ${style.iconic}`, words: style.words };
