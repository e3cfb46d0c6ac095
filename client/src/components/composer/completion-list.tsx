// The popup of reference completions above the composer's textarea. The keyboard stays in the textarea
// (see use-completion.ts); an item's mousedown is swallowed so a click inserts without taking focus.
import { useEffect, useRef } from "preact/hooks";
import { SIGILS } from "../../lib/completion";
import type { CompletionState } from "../../lib/use-completion";
import style from "./style.module.css";

export const COMPLETION_ID = "composer-completion";
export const completionItemId = (index: number) => `${COMPLETION_ID}-${index}`;

const LABELS = { note: "Notes", knowledge: "Knowledge", workflow: "Workflows" } as const;

type Props = { state: CompletionState; onChoose: (index: number) => void; onHover: (index: number) => void };

export function CompletionList({ state, onChoose, onHover }: Props) {
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    list.current?.querySelector(`#${completionItemId(state.active)}`)?.scrollIntoView({ block: "nearest" });
  }, [state.active]);

  return (
    <div
      ref={list}
      id={COMPLETION_ID}
      class={style.completion}
      role="listbox"
      aria-label={LABELS[state.kind]}
      data-testid="completion"
      data-kind={state.kind}
    >
      {state.items.map((item, index) => (
        <div
          key={item.value}
          id={completionItemId(index)}
          role="option"
          aria-selected={index === state.active}
          class={`${style.completionItem} ${index === state.active ? style.completionActive : ""}`}
          onMouseDown={(event) => event.preventDefault()}
          onMouseMove={() => index !== state.active && onHover(index)}
          onClick={() => onChoose(index)}
          onKeyDown={(event) => event.key === "Enter" && onChoose(index)}
          tabIndex={-1}
          data-testid="completion-item"
          data-value={item.value}
        >
          <span class={style.completionValue}>
            {SIGILS[state.kind]}
            {item.value}
          </span>
          {item.detail && <span class={style.completionDetail}>{item.detail}</span>}
        </div>
      ))}
    </div>
  );
}
