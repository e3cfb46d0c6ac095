// The home page (/): a composer ready to type in and a few example prompts. Sending opens a
// conversation (the newest one when it is still empty, else a new one), queues the text for it
// (lib/outbox.ts) and goes there; the chat sends it once its socket is connected. The examples are
// phrases the offline demo model acts on (durable-objects/agent/llm/demo-script.ts), so they show
// something real even without an API key.
import { useEffect, useRef } from "preact/hooks";
import { Composer } from "../composer";
import style from "./style.module.css";

export const EXAMPLES = [
  "Summarise my notes",
  "What tasks are open?",
  "Add a task: water the plants on Friday",
  "Write a note called ideas: try the Oracle on a phone",
] as const;

type Props = { busy: boolean; onStart: (content: string) => void };

export function Home({ busy, onStart }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Ready to type: the composer has focus as the page opens.
    root.current?.querySelector<HTMLTextAreaElement>("[data-testid=composer-input]")?.focus();
  }, []);

  return (
    <div ref={root} class={style.home} data-testid="home">
      <div class={style.intro}>
        <h1 class={style.title}>What can the Oracle do for you?</h1>
        <p class={style.lead}>Ask anything, or start from an example.</p>
        <ul class={style.examples}>
          {EXAMPLES.map((example) => (
            <li key={example}>
              <button
                type="button"
                class={style.example}
                disabled={busy}
                onClick={() => onStart(example)}
                data-testid="example-prompt"
              >
                {example}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class={style.composer}>
        <Composer
          running={false}
          connected={!busy}
          onSend={(frame) => {
            onStart(frame.content);
            return true;
          }}
          onStop={() => {}}
        />
      </div>
    </div>
  );
}
