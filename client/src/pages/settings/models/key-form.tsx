// "Replace key": a small form under a provider that sends a new API key (the stored one is never shown,
// so it can only be replaced) or removes it. Its error shows by the input; what was typed stays.
import { useEffect, useRef, useState } from "preact/hooks";
import { fieldErrors, type Provider, ProviderPatchSchema } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import { FormActions, formStyle as kit, SecretField, useFormSubmit } from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";

type Props = {
  provider: Provider;
  /** A new key, or null to remove the stored one. */
  onSave: (key: string | null) => Promise<ApiResult<Provider>>;
  onClose: () => void;
};

export function KeyForm({ provider, onSave, onClose }: Props) {
  const [key, setKey] = useState("");
  const submitting = useFormSubmit(["api_key"]);
  const [saving, setSaving] = useState<"key" | "remove" | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input")?.focus();
  }, []);

  const send = async (value: string | null) => {
    if (saving) return;
    if (value !== null) {
      const check = ProviderPatchSchema.safeParse({ api_key: value });
      const problem = value.trim() ? check.error && fieldErrors(check.error).api_key : "type the new key";
      submitting.setErrors(problem ? { api_key: problem } : {});
      if (problem) return;
    }
    setSaving(value === null ? "remove" : "key");
    const result = await onSave(value);
    setSaving(null);
    if (result.ok) return onClose();
    submitting.refuse(result.error);
  };

  const id = `provider-key-${provider.id}`;
  return (
    <form
      ref={form}
      class={`${page.editor} ${kit.form}`}
      noValidate
      aria-label={`New API key for ${provider.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send(key);
      }}
      data-testid="provider-key-form"
    >
      <SecretField
        id={id}
        label="New API key"
        value={key}
        onInput={setKey}
        error={submitting.errors.api_key}
        hint="Stored encrypted; the provider is tested with it at once."
        testid="provider-key-input"
        grow
      />
      <FormActions error={submitting.formError} errorTestid="provider-key-error">
        <button type="button" onClick={onClose} data-testid="provider-key-cancel">
          Cancel
        </button>
        <button type="submit" class={page.primary} disabled={saving !== null} data-testid="provider-key-save">
          {saving === "key" ? "Saving…" : "Save key"}
        </button>
        {provider.has_key && (
          <button
            type="button"
            class={page.danger}
            disabled={saving !== null}
            onClick={() => void send(null)}
            data-testid="provider-key-remove"
          >
            {saving === "remove" ? "Removing…" : "Remove key"}
          </button>
        )}
      </FormActions>
    </form>
  );
}
