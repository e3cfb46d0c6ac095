// Model text as it streams for one step (`text_delta` frames); not persisted, replaced by the agent
// message once that arrives. It carries no status line: the working indicator under it is the one
// place that says what the turn is doing.
import { Markdown } from "../markdown";
import style from "./style.module.css";

export function StreamingBubble({ step, text }: { step: number; text: string }) {
  return (
    <div class={style.row} data-testid="streaming" data-step={step} aria-live="off">
      <div class={style.bubble}>
        <Markdown text={text} />
        <span class={style.caret} aria-hidden="true" />
      </div>
    </div>
  );
}
