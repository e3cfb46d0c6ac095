// Where the user writes: Enter sends, Shift+Enter breaks the line. Per-run controls (seed 003) sit
// beside it: max steps and decision tree, left empty to use the Settings defaults, and a Stop button
// while a turn runs. The chat frame is validated against the protocol before it is sent. Typing `@`,
// `#` or `/` opens a completion list of notes, knowledge entries or workflows (seed 002); while it is
// open it has first say over ↑/↓, Enter, Tab and Esc.
import { useRef, useState } from "preact/hooks";
import { type ChatFrame, ChatFrameSchema } from "../../../../protocol";
import { useCompletion } from "../../lib/use-completion";
import { COMPLETION_ID, CompletionList, completionItemId } from "./completion-list";
import style from "./style.module.css";

const DECISION_TREES = ["default", "roa"] as const;

type Props = {
  running: boolean;
  connected: boolean;
  onSend: (frame: ChatFrame) => boolean;
  /** The text the box opens with (a message that could not be sent, given back). */
  initialText?: string;
  onStop: () => void;
  /** The message box, for the chat to focus (on open, after Stop, after an answer). */
  inputRef?: { current: HTMLTextAreaElement | null };
};

function buildFrame(content: string, maxSteps: string, decisionTree: string) {
  return ChatFrameSchema.safeParse({
    type: "chat",
    content,
    agent_max_steps: maxSteps === "" ? undefined : Number(maxSteps),
    decision_tree: decisionTree === "" ? undefined : decisionTree,
  });
}

export function Composer({ running, connected, onSend, onStop, inputRef, initialText = "" }: Props) {
  const [text, setText] = useState(initialText);
  const [maxSteps, setMaxSteps] = useState("");
  const [decisionTree, setDecisionTree] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const ownTextarea = useRef<HTMLTextAreaElement>(null);
  const textarea = inputRef ?? ownTextarea;
  const completion = useCompletion({ text, textarea, setText });
  const canSend = connected && !running && text.trim() !== "";

  const send = () => {
    if (!canSend) return;
    const frame = buildFrame(text, maxSteps, decisionTree);
    if (!frame.success) {
      const issue = frame.error.issues[0];
      const field = issue?.path[0] === "agent_max_steps" ? "Max steps must be a whole number from 1 to 50" : null;
      setProblem(field ?? issue?.message ?? "This message cannot be sent");
      return;
    }
    setProblem(null);
    if (onSend(frame.data)) setText("");
    // After a click on Send, the focus goes back to the message box, ready for the next one.
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (completion.onKeyDown(event)) return;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      class={style.composer}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div class={style.field}>
        {completion.state && (
          <CompletionList state={completion.state} onChoose={completion.choose} onHover={completion.hover} />
        )}
        <textarea
          ref={textarea}
          class={style.input}
          rows={3}
          value={text}
          placeholder={
            running
              ? "The Oracle is working…"
              : "Message the Oracle (Enter to send, Shift+Enter for a new line, @ note, # knowledge, / workflow)"
          }
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={completion.state ? COMPLETION_ID : undefined}
          aria-activedescendant={completion.state ? completionItemId(completion.state.active) : undefined}
          onInput={(event) => {
            setText(event.currentTarget.value);
            completion.syncCaret();
          }}
          onKeyDown={onKeyDown}
          onKeyUp={completion.syncCaret}
          onClick={completion.syncCaret}
          onFocus={completion.syncCaret}
          onBlur={completion.close}
          data-testid="composer-input"
        />
      </div>
      <div class={style.controls} data-running={running ? "true" : "false"}>
        <label class={style.control}>
          <span>
            <span class={style.wide}>Max </span>steps
          </span>
          <input
            type="number"
            min={1}
            max={50}
            step={1}
            value={maxSteps}
            placeholder="default"
            class={style.steps}
            onInput={(event) => setMaxSteps(event.currentTarget.value)}
            data-testid="max-steps"
          />
        </label>
        <label class={style.control}>
          Tree
          <select
            value={decisionTree}
            onChange={(event) => setDecisionTree(event.currentTarget.value)}
            data-testid="decision-tree"
          >
            <option value="">settings</option>
            {DECISION_TREES.map((tree) => (
              <option key={tree} value={tree}>
                {tree}
              </option>
            ))}
          </select>
        </label>
        {problem && (
          <span class={style.problem} role="alert" data-testid="composer-error">
            {problem}
          </span>
        )}
        <span class={style.spacer} />
        {running && (
          <button type="button" class={style.stop} onClick={onStop} title="Stop (Esc)" data-testid="stop">
            ■ Stop
          </button>
        )}
        <button
          type="submit"
          class={style.send}
          disabled={!canSend}
          title={
            !connected
              ? "Send is disabled until the connection is back"
              : running
                ? "Wait for the answer, or press Stop (Esc)"
                : undefined
          }
          data-testid="send"
        >
          Send
        </button>
      </div>
    </form>
  );
}
