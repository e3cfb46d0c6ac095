// A note's text: a textarea with an Edit / Preview switch; the preview is the text as Markdown.
// Ctrl/Cmd+Enter submits the form it is in.
import { useEffect, useRef, useState } from "preact/hooks";
import { Markdown } from "../../components/markdown";
import { pageStyle as page } from "../../components/page-frame";
import hidden from "../../ui/visually-hidden/style.module.css";
import style from "./style.module.css";

type Props = {
  id: string;
  value: string;
  onInput: (value: string) => void;
  onSubmit: (event: Event) => void;
  autoFocus?: boolean;
};

export function TextEditor(props: Props) {
  const [preview, setPreview] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const focusArea = useRef(props.autoFocus ?? false);
  useEffect(() => {
    if (!preview && focusArea.current) area.current?.focus();
    focusArea.current = false;
  }, [preview]);

  return (
    <div class={style.field}>
      <div class={style.editorHead}>
        <label class={style.label} for={props.id}>
          Text (Markdown)
        </label>
        <fieldset class={style.modes}>
          <legend class={hidden.visuallyHidden}>Editor mode</legend>
          <button
            type="button"
            aria-pressed={!preview}
            class={!preview ? page.pressed : undefined}
            onClick={() => {
              focusArea.current = true;
              setPreview(false);
            }}
            data-testid="note-mode-edit"
          >
            Edit
          </button>
          <button
            type="button"
            aria-pressed={preview}
            class={preview ? page.pressed : undefined}
            onClick={() => setPreview(true)}
            data-testid="note-mode-preview"
          >
            Preview
          </button>
        </fieldset>
      </div>
      {preview ? (
        <div class={style.preview} data-testid="note-preview">
          {props.value.trim() ? <Markdown text={props.value} /> : <p class={page.muted}>Nothing to preview yet.</p>}
        </div>
      ) : (
        <textarea
          id={props.id}
          ref={area}
          class={style.textarea}
          rows={14}
          value={props.value}
          placeholder={"# A title\n\nWrite in Markdown…"}
          onInput={(event) => props.onInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) props.onSubmit(event);
          }}
          data-testid="note-textarea"
        />
      )}
    </div>
  );
}
