// /library: the user's knowledge entries (`#slug` in a message attaches one) and workflows (`/slug` runs
// one). One editor is open at a time; slug, title and body are checked as they are typed with the same
// zod rules the server applies, and the server's own field errors are shown where it names them.
import { useEffect, useRef, useState } from "preact/hooks";
import {
  EntryBodySchema,
  type EntryInput,
  EntryTitleSchema,
  type LibraryEntrySummary,
  MAX_BODY,
  SlugSchema,
} from "../../../../protocol/library";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import type { ApiResult } from "../../lib/api";
import { KINDS, type LibraryKind, type LibraryListState, useLibrary } from "../../lib/use-library";
import style from "./style.module.css";

const SECTIONS: Record<
  LibraryKind,
  { title: string; sigil: string; noun: string; intro: string; bodyLabel: string; placeholder: string }
> = {
  knowledge: {
    title: "Knowledge",
    sigil: "#",
    noun: "knowledge entry",
    intro:
      "Text the agent reads when a message mentions #slug: facts about you or a project, a style guide, a glossary.",
    bodyLabel: "Text",
    placeholder: "What the agent should know when this entry is attached…",
  },
  workflows: {
    title: "Workflows",
    sigil: "/",
    noun: "workflow",
    intro: "Saved prompts: start a message with /slug (or put it after a space) and its prompt enters the context.",
    bodyLabel: "Prompt",
    placeholder: "The instructions the agent follows when this workflow runs…",
  },
};

type Editing = { kind: LibraryKind; slug: string | null };
type Status = { kind: LibraryKind; text: string; error?: boolean; undo?: { slug: string; input: EntryInput } };

/** A zod message reads as a sentence. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : sentence(result.error?.issues[0]?.message ?? "Invalid");
}

export function Library() {
  const { lists, save, remove } = useLibrary();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [status, setStatus] = useState<Status | null>(null);

  const onSave = async (kind: LibraryKind, slug: string, input: EntryInput) => {
    const result = await save(kind, slug, input);
    if (result.ok) {
      setEditing(null);
      setStatus({ kind, text: `✓ Saved ${SECTIONS[kind].sigil}${slug}` });
    }
    return result;
  };

  const onDelete = async (kind: LibraryKind, entry: LibraryEntrySummary) => {
    const label = `${SECTIONS[kind].sigil}${entry.slug}`;
    const result = await remove(kind, entry.slug);
    if (editing?.kind === kind && editing.slug === entry.slug) setEditing(null);
    if (result.ok || result.error.status === 404)
      setStatus({ kind, text: `Deleted ${label}`, undo: { slug: entry.slug, input: entry } });
    else setStatus({ kind, text: `Could not delete ${label}: ${result.error.message}`, error: true });
  };

  const onUndo = async (kind: LibraryKind, undo: NonNullable<Status["undo"]>) => {
    const result = await save(kind, undo.slug, { title: undo.input.title, body: undo.input.body });
    const label = `${SECTIONS[kind].sigil}${undo.slug}`;
    setStatus(
      result.ok
        ? { kind, text: `✓ Restored ${label}` }
        : { kind, text: `Could not restore ${label}: ${result.error.message}`, error: true },
    );
  };

  return (
    <PageFrame title="Library" testid="library">
      {KINDS.map((kind) => (
        <Section
          key={kind}
          kind={kind}
          list={lists[kind]}
          editing={editing?.kind === kind ? editing.slug : undefined}
          status={status?.kind === kind ? status : null}
          onNew={() => {
            setEditing({ kind, slug: null });
            setStatus(null);
          }}
          onEdit={(slug) => {
            setEditing({ kind, slug });
            setStatus(null);
          }}
          onCancel={() => setEditing(null)}
          onSave={(slug, input) => onSave(kind, slug, input)}
          onDelete={(entry) => void onDelete(kind, entry)}
          onUndo={(undo) => void onUndo(kind, undo)}
        />
      ))}
    </PageFrame>
  );
}

type SectionProps = {
  kind: LibraryKind;
  list: LibraryListState;
  /** undefined: no editor here; null: a new entry; a slug: that entry. */
  editing: string | null | undefined;
  status: Status | null;
  onNew: () => void;
  onEdit: (slug: string) => void;
  onCancel: () => void;
  onSave: (slug: string, input: EntryInput) => Promise<ApiResult<unknown>>;
  onDelete: (entry: LibraryEntrySummary) => void;
  onUndo: (undo: NonNullable<Status["undo"]>) => void;
};

function Section({ kind, list, editing, status, onNew, onEdit, onCancel, onSave, onDelete, onUndo }: SectionProps) {
  const spec = SECTIONS[kind];
  const entries = list.status === "ready" ? list.entries : [];
  const taken = (slug: string) => entries.some((e) => e.slug === slug);
  const editor = (entry?: LibraryEntrySummary) => (
    <Editor kind={kind} entry={entry} taken={taken} onSave={onSave} onCancel={onCancel} />
  );

  return (
    <section class={style.section} data-testid={`library-${kind}`} aria-labelledby={`library-${kind}-title`}>
      <div class={style.sectionHead}>
        <h2 id={`library-${kind}-title`} class={style.sectionTitle}>
          {spec.title}
        </h2>
        <button
          type="button"
          class={style.new}
          onClick={onNew}
          disabled={editing === null || list.status !== "ready"}
          data-testid={`library-new-${kind}`}
        >
          + New {spec.noun}
        </button>
      </div>
      <p class={style.intro}>{spec.intro}</p>
      {status && (
        <p
          class={status.error ? page.statusError : page.status}
          role={status.error ? "alert" : "status"}
          data-testid="library-status"
        >
          {status.text}
          {status.undo && (
            <button
              type="button"
              class={page.undo}
              onClick={() => status.undo && onUndo(status.undo)}
              data-testid="library-undo"
            >
              Undo
            </button>
          )}
        </p>
      )}
      {editing === null && editor()}
      {list.status === "loading" && <p class={page.muted}>Loading…</p>}
      {list.status === "failed" && (
        <p class={page.statusError} role="alert">
          Could not load the {spec.title.toLowerCase()}: {list.message}
        </p>
      )}
      {list.status === "ready" && entries.length === 0 && editing !== null && (
        <p class={page.muted}>Nothing here yet.</p>
      )}
      <ul class={style.list}>
        {entries.map((entry) => (
          <li key={entry.slug} class={style.entry} data-testid={`library-entry-${entry.slug}`}>
            {editing === entry.slug ? (
              editor(entry)
            ) : (
              <>
                <div class={style.entryHead}>
                  <code class={style.slug}>
                    {spec.sigil}
                    {entry.slug}
                  </code>
                  <span class={style.entryTitle}>{entry.title}</span>
                  <span class={style.spacer} />
                  <button type="button" onClick={() => onEdit(entry.slug)} data-testid={`library-edit-${entry.slug}`}>
                    Edit
                  </button>
                  <button
                    type="button"
                    class={page.danger}
                    onClick={() => onDelete(entry)}
                    aria-label={`Delete ${spec.sigil}${entry.slug}`}
                    data-testid={`library-delete-${entry.slug}`}
                  >
                    Delete
                  </button>
                </div>
                <p class={style.preview}>{entry.body}</p>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

type EditorProps = {
  kind: LibraryKind;
  entry?: LibraryEntrySummary;
  taken: (slug: string) => boolean;
  onSave: (slug: string, input: EntryInput) => Promise<ApiResult<unknown>>;
  onCancel: () => void;
};

type Field = "slug" | "title" | "body";

function Editor({ kind, entry, taken, onSave, onCancel }: EditorProps) {
  const spec = SECTIONS[kind];
  const isNew = !entry;
  const [slug, setSlug] = useState(entry?.slug ?? "");
  const [title, setTitle] = useState(entry?.title ?? "");
  const [body, setBody] = useState(entry?.body ?? "");
  const [touched, setTouched] = useState<Record<Field, boolean>>({ slug: false, title: false, body: false });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  useEffect(() => first.current?.focus(), []);

  const slugProblem = !isNew
    ? null
    : slug === ""
      ? "Give a slug"
      : (firstIssue(SlugSchema.safeParse(slug)) ??
        (taken(slug) ? `${spec.sigil}${slug} already exists: edit that one instead` : null));
  const problems: Record<Field, string | null> = {
    // A slug is checked as it is typed; an empty one only once the field was left.
    slug: slug === "" && !touched.slug ? null : slugProblem,
    title: touched.title ? firstIssue(EntryTitleSchema.safeParse(title)) : null,
    body: touched.body ? firstIssue(EntryBodySchema.safeParse(body)) : null,
  };
  const shown = (field: Field) => problems[field] ?? serverErrors[field] ?? null;
  const invalid =
    slugProblem !== null || !EntryTitleSchema.safeParse(title).success || !EntryBodySchema.safeParse(body).success;

  const change = (field: Field, value: string) => {
    ({ slug: setSlug, title: setTitle, body: setBody })[field](value);
    setServerErrors(({ [field]: _, ...rest }) => rest);
    setFormError(null);
  };
  const touch = (field: Field) => setTouched((t) => ({ ...t, [field]: true }));

  const submit = async (event: Event) => {
    event.preventDefault();
    setTouched({ slug: true, title: true, body: true });
    if (invalid || saving) return;
    setSaving(true);
    const result = await onSave(slug, { title, body });
    // On success the parent closes this editor.
    if (result.ok) return;
    setSaving(false);
    setServerErrors(result.error.fields);
    setFormError(Object.keys(result.error.fields).length ? null : `Could not save: ${result.error.message}`);
  };

  const id = (field: Field) => `library-${kind}-${field}`;
  const error = (field: Field) => {
    const text = shown(field);
    return text ? (
      <span id={`${id(field)}-error`} class={style.fieldError} role="alert" data-testid={`library-error-${field}`}>
        {text}
      </span>
    ) : null;
  };

  return (
    <form
      class={`${page.editor} ${style.editor}`}
      onSubmit={(event) => void submit(event)}
      data-testid="library-editor"
    >
      <div class={style.row}>
        <label class={style.field} for={id("slug")}>
          <span class={style.label}>Slug</span>
          <span class={style.slugInput}>
            <span aria-hidden="true">{spec.sigil}</span>
            <input
              id={id("slug")}
              ref={isNew ? first : undefined}
              value={slug}
              readOnly={!isNew}
              autoComplete="off"
              spellcheck={false}
              placeholder="my-entry"
              aria-invalid={shown("slug") ? true : undefined}
              aria-describedby={shown("slug") ? `${id("slug")}-error` : undefined}
              onInput={(event) => change("slug", event.currentTarget.value)}
              onBlur={() => touch("slug")}
              data-testid="library-slug"
            />
          </span>
          {error("slug")}
        </label>
        <label class={`${style.field} ${style.grow}`} for={id("title")}>
          <span class={style.label}>Title</span>
          <input
            id={id("title")}
            ref={isNew ? undefined : first}
            value={title}
            placeholder="What this is, in a few words"
            aria-invalid={shown("title") ? true : undefined}
            aria-describedby={shown("title") ? `${id("title")}-error` : undefined}
            onInput={(event) => change("title", event.currentTarget.value)}
            onBlur={() => touch("title")}
            data-testid="library-title"
          />
          {error("title")}
        </label>
      </div>
      <label class={style.field} for={id("body")}>
        <span class={style.label}>
          {spec.bodyLabel}
          <span class={body.length > MAX_BODY ? style.countOver : style.count}>
            {body.length.toLocaleString()} / {MAX_BODY.toLocaleString()}
          </span>
        </span>
        <textarea
          id={id("body")}
          class={style.body}
          rows={8}
          value={body}
          placeholder={spec.placeholder}
          aria-invalid={shown("body") ? true : undefined}
          aria-describedby={shown("body") ? `${id("body")}-error` : undefined}
          onInput={(event) => change("body", event.currentTarget.value)}
          onBlur={() => touch("body")}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) void submit(event);
          }}
          data-testid="library-body"
        />
        {error("body")}
      </label>
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
