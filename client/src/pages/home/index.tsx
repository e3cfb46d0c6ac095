// The home page (/), where every new chat starts ("New conversation" and Ctrl/⌘+Shift+O come here): a
// composer ready to type in and a few example prompts. Sending makes the conversation (none exists
// before its first message), queues the text for it (lib/outbox.ts) and goes there; the chat sends it once its socket is connected. The examples are
// phrases the offline demo model acts on (agent/demo/script.ts), so they show
// something real even without an API key. The model picker chooses the new conversation's model (the
// user's default until they pick one).
import { useEffect, useRef, useState } from "preact/hooks";
import type { ModelRef } from "../../../../protocol";
import { Composer } from "../../components/composer";
import { ModelPicker } from "../../components/model-picker";
import { useShowModel } from "../../lib/use-models";
import style from "./style.module.css";

export const EXAMPLES = [
  "Summarise my notes",
  "What tasks are open?",
  "Add a task: water the plants on Friday",
  "Write a note called ideas: try the Oracle on a phone",
] as const;

type Props = {
  /** `model`: the one picked for the new conversation; null for the user's default. */
  onStart: (content: string, model: ModelRef | null) => void;
  /** A first message whose conversation could not be created, given back to the composer. */
  unsent?: { content: string; problem: string };
};

export function Home({ onStart, unsent }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [model, setModel] = useState<ModelRef | null>(null);
  useShowModel(model);
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
                onClick={() => onStart(example, model)}
                data-testid="example-prompt"
              >
                {example}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class={style.composer}>
        {unsent && (
          <p class={style.problem} role="alert" data-testid="home-error">
            Could not start a conversation: {unsent.problem}. Your message is still in the box.
          </p>
        )}
        <Composer
          running={false}
          initialText={unsent?.content}
          onSend={(frame) => {
            onStart(frame.content, model);
            return true;
          }}
          modelPicker={<ModelPicker value={model} onChoose={setModel} />}
          onStop={() => {}}
        />
      </div>
    </div>
  );
}
