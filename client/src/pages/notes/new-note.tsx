// The form that creates a note: its path (which makes folders with /) and its text.
import { useEffect, useRef, useState } from "preact/hooks";
import { pageStyle as page } from "../../components/page-frame";
import { explain } from "../../lib/use-notes";
import style from "./style.module.css";
import { TextEditor } from "./text-editor";
import type { Notes } from "./types";

type Props = { create: Notes["create"]; onCancel: () => void; onCreated: (path: string) => void };

export function NewNote(props: Props) {
  const [path, setPath] = useState("");
  const [content, setContent] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const pathInput = useRef<HTMLInputElement>(null);
  useEffect(() => pathInput.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    if (path.trim() === "") {
      setError("Give the note a path, like ideas.md or projects/plan.md.");
      pathInput.current?.focus();
      return;
    }
    setSaving(true);
    const result = await props.create(path, content);
    setSaving(false);
    if (result.ok) return props.onCreated(result.data.path);
    setError(explain(result.error, "create the note"));
    pathInput.current?.focus();
  };

  return (
    <form class={page.editor} onSubmit={(event) => void submit(event)} data-testid="note-new-form">
      <label class={style.field} for="note-new-path">
        <span class={style.label}>Path</span>
        <input
          id="note-new-path"
          ref={pathInput}
          value={path}
          autoComplete="off"
          spellcheck={false}
          placeholder="projects/plan.md"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "note-new-error" : "note-new-hint"}
          onInput={(event) => {
            setPath(event.currentTarget.value);
            setError(null);
          }}
          data-testid="note-path-input"
        />
        <span id="note-new-hint" class={style.hint}>
          Letters, digits, spaces and _ . / - ; a / makes folders.
        </span>
      </label>
      <TextEditor id="note-new-content" value={content} onInput={setContent} onSubmit={submit} />
      {error && (
        <p id="note-new-error" class={page.statusError} role="alert" data-testid="note-error">
          {error}
        </p>
      )}
      <div class={style.actions}>
        <button type="button" onClick={props.onCancel} data-testid="note-cancel">
          Cancel
        </button>
        <button type="submit" class={page.primary} disabled={saving} data-testid="note-save">
          {saving ? "Creating…" : "Create note"}
        </button>
      </div>
    </form>
  );
}
