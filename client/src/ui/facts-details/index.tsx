// A folded "Details" for what a person rarely needs (internal names, ids, raw values): a list of facts
// as terms and their values (`<dt>`/`<dd>` pairs, the children), then anything more (`after`). Used by
// System cards and by the subscribers in Settings → Notifications.
import type { ComponentChildren } from "preact";
import style from "./style.module.css";

type Props = {
  testid: string;
  /** The facts: `<dt>` and `<dd>` pairs. */
  children: ComponentChildren;
  /** Shown under the facts, inside the fold. */
  after?: ComponentChildren;
  /** The class of the fold itself, for the caller's spacing. */
  class?: string;
  /** Told when the fold opens or closes (what is heavy to show can wait for it). */
  onToggle?: (open: boolean) => void;
};

export function FactsDetails({ testid, children, after, class: className, onToggle }: Props) {
  return (
    <details
      class={`${style.details} ${className ?? ""}`}
      data-testid={testid}
      onToggle={onToggle && ((event) => onToggle(event.currentTarget.open))}
    >
      <summary class={style.summary}>Details</summary>
      <dl class={style.facts}>{children}</dl>
      {after}
    </details>
  );
}
