// The edits to one provider's models, kept on the page until "Save models" sends them all in one PATCH.
// Checked first with the protocol's schema; a refusal (the client's or the server's 400) shows by the
// inputs it names and keeps every edit. The server's list is followed while nothing is being edited.
import { useEffect, useState } from "preact/hooks";
import type { Provider, ProviderModel } from "../../../../../protocol";
import { splitErrors } from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import { type ModelDraft, readDrafts, sameDrafts, shownFields, toDraft } from "./model-draft";

const FIX_THEM = "Not saved: correct the values marked above.";

export function useModelDraft(provider: Provider, save: (models: ProviderModel[]) => Promise<ApiResult<Provider>>) {
  const [base, setBase] = useState(provider.models);
  const [rows, setRows] = useState(() => provider.models.map(toDraft));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const dirty = !sameDrafts(rows, base.map(toDraft));

  // A save, a test or another tab changed the server's list: show it, unless the user is editing.
  useEffect(() => {
    if (dirty || JSON.stringify(base) === JSON.stringify(provider.models)) return;
    setBase(provider.models);
    setRows(provider.models.map(toDraft));
  }, [dirty, base, provider.models]);

  const refuse = (next: ModelDraft[], fields: Record<string, string>, message: string) => {
    const split = splitErrors({ message, fields }, shownFields(next));
    setErrors(split.fields);
    setFormError(split.form ?? FIX_THEM);
  };

  const change = (next: ModelDraft[]) => {
    setRows(next);
    setSaved(false);
  };

  return {
    rows,
    errors,
    formError,
    saving,
    saved,
    dirty,
    /** One row changed; its own errors go (the others stay until the next save). */
    edit(key: number, patch: Partial<ModelDraft>) {
      const index = rows.findIndex((row) => row.key === key);
      setErrors((current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => !field.startsWith(`models.${index}.`))),
      );
      change(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
    },
    /** Rows move up: the errors, keyed by position, no longer fit them. */
    remove(key: number) {
      setErrors({});
      change(rows.filter((row) => row.key !== key));
    },
    add(row: ModelDraft) {
      change([...rows, row]);
    },
    discard() {
      setErrors({});
      setFormError(null);
      change(base.map(toDraft));
    },
    /** Sends the list (with `extra` rows added first); true when saved. */
    async save(extra: ModelDraft[] = []): Promise<boolean> {
      const next = [...rows, ...extra];
      change(next);
      const read = readDrafts(next);
      if (!read.ok) {
        refuse(next, read.fields, FIX_THEM);
        return false;
      }
      setSaving(true);
      const result = await save(read.models);
      setSaving(false);
      if (!result.ok) {
        refuse(next, result.error.fields, `Not saved: ${result.error.message}`);
        return false;
      }
      setErrors({});
      setFormError(null);
      setBase(result.data.models);
      setRows(result.data.models.map(toDraft));
      setSaved(true);
      return true;
    },
  };
}

export type ModelDraftState = ReturnType<typeof useModelDraft>;
