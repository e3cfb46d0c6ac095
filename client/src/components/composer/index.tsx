// Where the user writes: one row that grows with the text (up to a limit, then it scrolls). On a
// desktop Enter sends and Shift+Enter breaks the line; on a touch screen (coarse pointer) Enter breaks
// the line, as an on-screen keyboard expects, and the Send button sends. Per-run options (seed 003: a
// step limit and the approach, left empty to use the Settings defaults) sit behind the Options button,
// and Stop takes Send's place while a turn runs; the model picker (given by the page) sits beside Send. The chat frame is validated against the protocol
// before it is sent. Typing `@`, `#` or `/` opens a completion list of notes, knowledge entries or
// workflows (seed 002); while it is open it has first say over ↑/↓, Enter, Tab and Esc. Where the browser
// can take dictation, a microphone button (components/voice/, loaded when first shown) fills the box.
// Given the page's `attachments` (lib/use-attachments.ts), a paperclip picks files, a pasted image or
// file is attached, and the files show as chips above the box; Send waits while one uploads, and a
// message may then be only its files. When the model in view does not read images and one is attached,
// a line under the box says so before sending.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type Attachment, type ChatFrame, ChatFrameSchema } from "../../../../protocol";
import type { Attachments } from "../../lib/use-attachments";
import { useCompletion } from "../../lib/use-completion";
import { lazyPart } from "../shell/lazy";
import { canDictate, Voice } from "../voice/lazy";
import { AttachButton } from "./attach-button";
import { COMPLETION_ID, CompletionList, completionItemId } from "./completion-list";
import { ComposerOptions } from "./options";
import style from "./style.module.css";

// The files' part (the refusals, the chips, the warning for a model that cannot see) loads with the first file given.
const ComposerFiles = lazyPart(() => import("../attachments").then((m) => m.ComposerFiles));
const ImageWarning = lazyPart(() => import("../attachments").then((m) => m.ImageWarning));

type Props = {
  running: boolean;
  /** True when the text is taken (the chat keeps it in its outbox even while the connection is down). */
  onSend: (frame: ChatFrame, files: Attachment[]) => boolean;
  /** The text the box opens with (a message that could not be sent, given back). */
  initialText?: string;
  onStop: () => void;
  /** The message box, for the chat to focus (on open, after Stop, after an answer). */
  inputRef?: { current: HTMLTextAreaElement | null };
  /** The model picker, before Send. */
  modelPicker?: ComponentChildren;
  /** Send waits (a model choice is being saved; the text stays). */
  holding?: boolean;
  /** The message's files (the page holds them, so a drop on it adds to them); absent: no files. */
  attachments?: Attachments;
};

function buildFrame(content: string, maxSteps: string, decisionTree: string, files: readonly Attachment[]) {
  return ChatFrameSchema.safeParse({
    type: "chat",
    content,
    agent_max_steps: maxSteps === "" ? undefined : Number(maxSteps),
    decision_tree: decisionTree === "" ? undefined : decisionTree,
    attachments: files.length ? files.map((f) => f.id) : undefined,
  });
}

/** Why Send waits for the files, in its tooltip; null when they are ready. */
function filesWait(attachments: Attachments | undefined): string | null {
  if (attachments?.uploading) return "Wait for the files to upload";
  if (attachments?.failed) return "Remove the files that could not be uploaded";
  return null;
}

/** A paste that holds files and no text attaches them (a screenshot, files copied in a file manager). */
function pastedFiles(event: ClipboardEvent): File[] {
  const data = event.clipboardData;
  if (!data || data.types.includes("text/plain")) return [];
  return [...data.files];
}

/** A touch screen's keyboard has no Shift+Enter to speak of: there Enter makes a new line. */
function enterMakesNewLine(): boolean {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

/**
 * Fits the box to its text: one row when empty (a placeholder that wraps on a narrow phone is not text),
 * growing line by line up to its CSS max-height.
 */
function fitHeight(textarea: HTMLTextAreaElement | null) {
  if (!textarea) return;
  textarea.style.height = "auto";
  if (textarea.value === "") return;
  textarea.style.height = `${textarea.scrollHeight + textarea.offsetHeight - textarea.clientHeight}px`;
}

export function Composer(props: Props) {
  const { running, onSend, onStop, inputRef, modelPicker, holding = false, initialText = "", attachments } = props;
  const [text, setText] = useState(initialText);
  const [maxSteps, setMaxSteps] = useState("");
  const [decisionTree, setDecisionTree] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const ownTextarea = useRef<HTMLTextAreaElement>(null);
  const textarea = inputRef ?? ownTextarea;
  const completion = useCompletion({ text, textarea, setText });
  const waitFiles = filesWait(attachments);
  const hasFiles = (attachments?.ready ?? 0) > 0;
  const canSend = !running && !holding && !waitFiles && (text.trim() !== "" || hasFiles);

  useLayoutEffect(() => fitHeight(textarea.current), [text]);

  const send = () => {
    if (!canSend) return;
    const files = attachments?.items.flatMap((item) => (item.file ? [item.file] : [])) ?? [];
    const frame = buildFrame(hasFiles && text.trim() === "" ? "" : text, maxSteps, decisionTree, files);
    if (!frame.success) {
      const issue = frame.error.issues[0];
      const field = issue?.path[0] === "agent_max_steps" ? "The step limit must be a whole number from 1 to 50" : null;
      setProblem(field ?? issue?.message ?? "This message cannot be sent");
      return;
    }
    setProblem(null);
    if (onSend(frame.data, files)) {
      setText("");
      attachments?.take();
    }
    // After a click on Send, the focus goes back to the message box, ready for the next one.
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (completion.onKeyDown(event)) return;
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || enterMakesNewLine()) return;
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
      onPaste={(event) => {
        const files = attachments ? pastedFiles(event) : [];
        if (!files.length) return;
        event.preventDefault();
        void attachments?.add(files, { pasted: true });
      }}
    >
      {problem && (
        <p class={style.problem} role="alert" data-testid="composer-error">
          {problem}
        </p>
      )}
      {attachments && (attachments.items.length > 0 || attachments.refusals.length > 0) && (
        <ComposerFiles attachments={attachments} />
      )}
      <div class={style.box}>
        <ComposerOptions
          maxSteps={maxSteps}
          decisionTree={decisionTree}
          onMaxSteps={setMaxSteps}
          onDecisionTree={setDecisionTree}
        />
        {attachments && <AttachButton onFiles={(files) => void attachments.add(files)} />}
        <div class={style.field}>
          {completion.state && (
            <CompletionList state={completion.state} onChoose={completion.choose} onHover={completion.hover} />
          )}
          <textarea
            ref={textarea}
            class={style.input}
            rows={1}
            value={text}
            placeholder={running ? "The Oracle is working…" : "Ask the Oracle"}
            aria-label="Message"
            aria-describedby="composer-hint"
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
          <span id="composer-hint" class={style.hint}>
            Enter sends, Shift+Enter starts a new line (on a touch screen Enter starts a new line). Type @ for a note, #
            for knowledge, / for a workflow.
          </span>
        </div>
        {canDictate() && <Voice kind="dictate" text={text} onText={setText} onProblem={setProblem} />}
        {modelPicker}
        {running ? (
          <button type="button" class={style.stop} onClick={onStop} title="Stop (Esc)" data-testid="stop">
            <span aria-hidden="true" class={style.stopIcon} />
            <span class={style.label}>Stop</span>
          </button>
        ) : (
          <button
            type="submit"
            class={style.send}
            disabled={!canSend}
            title={holding ? "Switching the model…" : (waitFiles ?? "Send")}
            data-testid="send"
          >
            Send
          </button>
        )}
      </div>
      {attachments?.hasImage && <ImageWarning />}
    </form>
  );
}
