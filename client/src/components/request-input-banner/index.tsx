// The agent paused to ask the user something (seed 003 request_input): a softly flashing banner with
// the question, its deadline (kept across a reload: the socket's hello carries it) with the time left,
// in words ("about 5 minutes left"), and a focused answer box. Sending the answer, a timeout or the end of the turn hides it.
import { useEffect, useRef, useState } from "preact/hooks";
import { durationInWords } from "../../lib/time-left";
import type { PendingInput } from "../../lib/turn-state";
import { Deadline as TimeLeft } from "../../ui/deadline";
import style from "./style.module.css";

type Props = { pending: PendingInput; onAnswer: (content: string) => void };

function Deadline({ pending }: { pending: PendingInput }) {
  if (pending.deadline && !Number.isNaN(Date.parse(pending.deadline)))
    return (
      <TimeLeft deadline={pending.deadline} lead="answer by" class={style.timeout} testid="request-input-deadline" />
    );
  if (pending.timeout_s === undefined) return null;
  return (
    <span class={style.timeout} data-testid="request-input-deadline">
      {" "}
      · answer within {durationInWords(pending.timeout_s)}
    </span>
  );
}

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
        <Deadline pending={pending} />
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
