// The home page (/), where every new chat starts ("New conversation" and Ctrl/⌘+Shift+O come here): a
// composer ready to type in and a few example prompts. Sending makes the conversation (none exists
// before its first message), queues the text for it (lib/outbox.ts) and goes there; the chat sends it once its socket is connected. The examples are
// phrases the offline demo model acts on (agent/demo/script.ts), so they show
// something real even without an API key. The model picker chooses the new conversation's model (the
// user's default until they pick one).
import { useEffect, useRef, useState } from "preact/hooks";
import type { Attachment, ModelRef } from "../../../../protocol";
import { Composer } from "../../components/composer";
import { DropOverlay, useFileDrop } from "../../components/composer/drop-overlay";
import { ModelPicker } from "../../components/model-picker";
import type { Unsent } from "../../components/shell/use-open-conversation";
import { useAttachments } from "../../lib/use-attachments";
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
  onStart: (content: string, model: ModelRef | null, files?: Attachment[]) => void;
  /** A first message whose conversation could not be created, given back to the composer. */
  unsent?: Unsent;
};

export function Home({ onStart, unsent }: Props) {
  const root = useRef<HTMLDivElement>(null);
  const [model, setModel] = useState<ModelRef | null>(null);
  useShowModel(model);
  const attachments = useAttachments();
  const drop = useFileDrop((files) => void attachments.add(files));
  useEffect(() => {
    // Ready to type: the composer has focus as the page opens.
    root.current?.querySelector<HTMLTextAreaElement>("[data-testid=composer-input]")?.focus();
  }, []);
  // A first message given back keeps its files.
  const { restore } = attachments;
  useEffect(() => {
    if (unsent?.files?.length) restore(unsent.files);
  }, [unsent, restore]);

  return (
    <div ref={root} class={style.home} data-testid="home" {...drop.handlers}>
      <DropOverlay shown={drop.dragging} />
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
          onSend={(frame, files) => {
            onStart(frame.content, model, files);
            return true;
          }}
          attachments={attachments}
          modelPicker={<ModelPicker value={model} onChoose={setModel} />}
          onStop={() => {}}
        />
      </div>
    </div>
  );
}
