// One entry's editor (a new one, or an existing one whose slug stays): slug, title and the text or
// prompt with its length, each with its error; Ctrl+Enter saves. Its state is use-entry-editor.ts.
import type { EntryInput, LibraryEntrySummary } from "../../../../protocol/library";
import { MAX_BODY } from "../../../../protocol/library";
import { pageStyle as page } from "../../components/page-frame";
import type { ApiResult } from "../../lib/api";
import type { LibraryKind } from "../../lib/use-library";
import { SECTIONS } from "./sections";
import style from "./style.module.css";
import { type EntryEditor, type Field, useEntryEditor } from "./use-entry-editor";

type EditorProps = {
  kind: LibraryKind;
  entry?: LibraryEntrySummary;
  taken: (slug: string) => boolean;
  onSave: (slug: string, input: EntryInput) => Promise<ApiResult<unknown>>;
  onCancel: () => void;
};

export function Editor({ kind, entry, taken, onSave, onCancel }: EditorProps) {
  const editor = useEntryEditor({ kind, entry, taken, onSave });
  const { formError, saving } = editor;
  return (
    <form
      class={`${page.editor} ${style.editor}`}
      onSubmit={(event) => void editor.submit(event)}
      data-testid="library-editor"
    >
      <SlugAndTitle kind={kind} editor={editor} />
      <BodyField kind={kind} editor={editor} />
      <div class={style.actions}>
        {formError && (
          <span class={style.fieldError} role="alert" data-testid="library-form-error">
            {formError}
          </span>
        )}
        <span class={style.spacer} />
        <button type="button" onClick={onCancel} data-testid="library-cancel">
          Cancel
        </button>
        <button type="submit" class={page.primary} disabled={saving} data-testid="library-save">
          {saving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}

type PartProps = { kind: LibraryKind; editor: EntryEditor };

const fieldId = (kind: LibraryKind, field: Field) => `library-${kind}-${field}`;

/** A field's input attributes: its id, value, error reference and handlers. */
function inputProps(kind: LibraryKind, editor: EntryEditor, field: Field) {
  const problem = editor.shown(field);
  return {
    id: fieldId(kind, field),
    value: editor.values[field],
    "aria-invalid": problem ? true : undefined,
    "aria-describedby": problem ? `${fieldId(kind, field)}-error` : undefined,
    onInput: (event: Event) => editor.change(field, (event.currentTarget as HTMLInputElement).value),
    onBlur: () => editor.touch(field),
    "data-testid": `library-${field}`,
  };
}

function FieldError({ kind, editor, field }: PartProps & { field: Field }) {
  const text = editor.shown(field);
  return text ? (
    <span
      id={`${fieldId(kind, field)}-error`}
      class={style.fieldError}
      role="alert"
      data-testid={`library-error-${field}`}
    >
      {text}
    </span>
  ) : null;
}

function SlugAndTitle({ kind, editor }: PartProps) {
  const { isNew, first } = editor;
  return (
    <div class={style.row}>
      <label class={style.field} for={fieldId(kind, "slug")}>
        <span class={style.label}>Slug</span>
        <span class={style.slugInput}>
          <span aria-hidden="true">{SECTIONS[kind].sigil}</span>
          <input
            {...inputProps(kind, editor, "slug")}
            ref={isNew ? first : undefined}
            readOnly={!isNew}
            autoComplete="off"
            spellcheck={false}
            placeholder="my-entry"
          />
        </span>
        <FieldError kind={kind} editor={editor} field="slug" />
      </label>
      <label class={`${style.field} ${style.grow}`} for={fieldId(kind, "title")}>
        <span class={style.label}>Title</span>
        <input
          {...inputProps(kind, editor, "title")}
          ref={isNew ? undefined : first}
          placeholder="What this is, in a few words"
        />
        <FieldError kind={kind} editor={editor} field="title" />
      </label>
    </div>
  );
}

function BodyField({ kind, editor }: PartProps) {
  const body = editor.values.body;
  return (
    <label class={style.field} for={fieldId(kind, "body")}>
      <span class={style.label}>
        {SECTIONS[kind].bodyLabel}
        <span class={body.length > MAX_BODY ? style.countOver : style.count}>
          {body.length.toLocaleString()} / {MAX_BODY.toLocaleString()}
        </span>
      </span>
      <textarea
        {...inputProps(kind, editor, "body")}
        class={style.body}
        rows={8}
        placeholder={SECTIONS[kind].placeholder}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void editor.submit(event);
        }}
      />
      <FieldError kind={kind} editor={editor} field="body" />
    </label>
  );
}
