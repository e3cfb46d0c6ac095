// What the model thought before it answered, folded into one line as the apps people know show it:
// "Thinking…" while it streams, then "Thought for 12 s"; open, it shows the text, muted so it never reads
// as the answer. Folded by default, open or not, it is the model's, not the product's (no System badge).
import { useState } from "preact/hooks";
import { thoughtFor } from "../../lib/thought-for";
import { Spinner } from "../../ui/spinner";
import { Markdown } from "../markdown";
import style from "./style.module.css";

type Props = {
  text: string;
  /** How long it thought; absent while it is still thinking. */
  durationMs?: number;
  /** A key for the text's id (the step, or the message's seq). */
  id: string;
};

export function ReasoningBlock({ text, durationMs, id }: Props) {
  const [open, setOpen] = useState(false);
  const thinking = durationMs === undefined;
  const bodyId = `reasoning-${id}`;
  return (
    <div
      class={`${style.block} ${open ? style.open : ""}`}
      data-testid="reasoning"
      data-state={thinking ? "thinking" : "done"}
    >
      <button
        type="button"
        class={style.toggle}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        data-testid="reasoning-toggle"
      >
        {thinking ? (
          <Spinner small />
        ) : (
          <span class={style.chevron} aria-hidden="true">
            ▸
          </span>
        )}
        <span data-testid="reasoning-summary">{thinking ? "Thinking…" : `Thought for ${thoughtFor(durationMs)}`}</span>
      </button>
      {open && (
        <div id={bodyId} class={style.text} data-testid="reasoning-text">
          <Markdown text={text} />
        </div>
      )}
    </div>
  );
}
