// The entry editor's state: slug, title and body, checked as they are typed with the zod rules the server
// applies (a field's problem shows once it was left; a slug's at once), the server's own field errors
// where it names them, and the submit that hands a valid entry to the page.
import { useEffect, useRef, useState } from "preact/hooks";
import {
  EntryBodySchema,
  type EntryInput,
  EntryTitleSchema,
  type LibraryEntrySummary,
  SlugSchema,
} from "../../../../protocol/library";
import type { ApiResult } from "../../lib/api";
import type { LibraryKind } from "../../lib/use-library";
import { firstIssue, SECTIONS } from "./sections";

export type Field = "slug" | "title" | "body";

type Options = {
  kind: LibraryKind;
  entry?: LibraryEntrySummary;
  taken: (slug: string) => boolean;
  onSave: (slug: string, input: EntryInput) => Promise<ApiResult<unknown>>;
};

export function useEntryEditor({ kind, entry, taken, onSave }: Options) {
  const isNew = !entry;
  const [values, setValues] = useState<Record<Field, string>>({
    slug: entry?.slug ?? "",
    title: entry?.title ?? "",
    body: entry?.body ?? "",
  });
  const [touched, setTouched] = useState<Record<Field, boolean>>({ slug: false, title: false, body: false });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const { slug, title, body } = values;
  const slugProblem = !isNew
    ? null
    : slug === ""
      ? "Give a slug"
      : (firstIssue(SlugSchema.safeParse(slug)) ??
        (taken(slug) ? `${SECTIONS[kind].sigil}${slug} already exists: edit that one instead` : null));
  const problems: Record<Field, string | null> = {
    // A slug is checked as it is typed; an empty one only once the field was left.
    slug: slug === "" && !touched.slug ? null : slugProblem,
    title: touched.title ? firstIssue(EntryTitleSchema.safeParse(title)) : null,
    body: touched.body ? firstIssue(EntryBodySchema.safeParse(body)) : null,
  };
  const invalid =
    slugProblem !== null || !EntryTitleSchema.safeParse(title).success || !EntryBodySchema.safeParse(body).success;

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

  return {
    isNew,
    values,
    first,
    formError,
    saving,
    submit,
    /** The problem a field shows: the client's check first, then the server's. */
    shown: (field: Field) => problems[field] ?? serverErrors[field] ?? null,
    change(field: Field, value: string) {
      setValues((v) => ({ ...v, [field]: value }));
      setServerErrors(({ [field]: _, ...rest }) => rest);
      setFormError(null);
    },
    touch: (field: Field) => setTouched((t) => ({ ...t, [field]: true })),
  };
}

export type EntryEditor = ReturnType<typeof useEntryEditor>;
