// The agent paused to ask the user something (seed 003 request_input): a softly flashing banner with
// the question and a focused answer box. Sending the answer, a timeout or the end of the turn hides it.
import { useEffect, useRef, useState } from "preact/hooks";
import type { PendingInput } from "../../lib/turn-state";
import style from "./style.module.css";

type Props = { pending: PendingInput; onAnswer: (content: string) => void };

export function RequestInputBanner({ pending, onAnswer }: Props) {
  const [answer, setAnswer] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, [pending.question]);

  const submit = (event: Event) => {
    event.preventDefault();
    const content = answer.trim();
    if (content) onAnswer(content);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submit(event);
  };

  return (
    <form class={style.banner} onSubmit={submit} data-testid="request-input">
      <div class={style.label}>
        The Oracle asks (step {pending.step})
        {pending.timeout_s !== undefined && <span class={style.timeout}> · answer within {pending.timeout_s} s</span>}
      </div>
      <p class={style.question} aria-live="assertive">
        {pending.question}
      </p>
      <div class={style.row}>
        <textarea
          ref={input}
          class={style.input}
          rows={2}
          value={answer}
          placeholder="Your answer"
          aria-label="Your answer"
          onInput={(event) => setAnswer(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          data-testid="request-input-answer"
        />
        <button type="submit" class={style.send} disabled={!answer.trim()} data-testid="request-input-send">
          Answer
        </button>
      </div>
    </form>
  );
}
