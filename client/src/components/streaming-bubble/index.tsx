// Model text as it streams for one step (`text_delta` frames); not persisted, replaced by the agent
// message once that arrives.
import { Markdown } from "../markdown";
import style from "./style.module.css";

export function StreamingBubble({ step, text }: { step: number; text: string }) {
  return (
    <div class={style.row} data-testid="streaming" data-step={step} aria-live="off">
      <div class={style.bubble}>
        <div class={style.meta}>Step {step} · writing…</div>
        <Markdown text={text} />
        <span class={style.caret} aria-hidden="true" />
      </div>
    </div>
  );
}
