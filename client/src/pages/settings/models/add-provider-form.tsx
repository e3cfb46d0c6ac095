// "Add a provider": name, base URL, API key and API style, checked with the protocol's own schema before
// it is sent. The server tests the provider and lists its models before it answers ("Adding and
// testing…"); a provider whose test fails is saved anyway, and the form says so. A refusal shows by its
// fields (the 400's `fields`) or as one sentence (a 409: too many providers); what the user typed stays.
import { useState } from "preact/hooks";
import {
  type ApiStyle,
  fieldErrors,
  type Provider,
  type ProviderCreate,
  ProviderCreateSchema,
} from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import type { ApiResult } from "../../../lib/api";
import { plural } from "../../../lib/plural";
import { splitErrors, TextField } from "../tools/fields";
import tool from "../tools/style.module.css";
import { StyleSelect } from "./style-select";

type Props = { onCreate: (input: ProviderCreate) => Promise<ApiResult<Provider>> };

const SHOWN = ["name", "base_url", "api_key", "style"];

/** What adding did, in a sentence: the models found, or why the test failed. */
function addedText(provider: Provider): { failed: boolean; text: string } {
  if (provider.last_error) return { failed: true, text: `Saved, but the test failed: ${provider.last_error}` };
  const found = provider.models.length
    ? `found ${plural(provider.models.length, "model")}`
    : "the server lists no models: add one by its name below";
  return { failed: false, text: `Added ${provider.name}: ${found}.` };
}

export function AddProviderForm({ onCreate }: Props) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [key, setKey] = useState("");
  const [style, setStyle] = useState<ApiStyle | "">("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [added, setAdded] = useState<{ failed: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const refuse = (error: { message: string; fields: Record<string, string> }, sentence?: string) => {
    const split = splitErrors(error, SHOWN);
    setErrors(split.fields);
    setFormError(sentence ?? split.form);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    setAdded(null);
    const body = {
      name: name.trim(),
      base_url: url.trim(),
      ...(key.trim() ? { api_key: key } : {}),
      ...(style ? { style } : {}),
    };
    const check = ProviderCreateSchema.safeParse(body);
    if (!check.success) return refuse({ message: "Check the fields above", fields: fieldErrors(check.error) });
    setSaving(true);
    const result = await onCreate(check.data);
    setSaving(false);
    if (!result.ok) {
      // Too many providers says so in a sentence, whatever it marks.
      return refuse(result.error, result.error.status === 409 ? result.error.message : undefined);
    }
    setErrors({});
    setFormError(null);
    setName("");
    setUrl("");
    setKey("");
    setStyle("");
    setAdded(addedText(result.data));
  };

  return (
    <form
      class={`${page.editor} ${tool.form}`}
      noValidate
      aria-labelledby="provider-add-title"
      onSubmit={(event) => void submit(event)}
      data-testid="provider-add-form"
    >
      <h2 id="provider-add-title" class={tool.formTitle}>
        Add a provider
      </h2>
      <div class={tool.row}>
        <TextField
          id="provider-add-name"
          label="Name"
          value={name}
          onInput={setName}
          error={errors.name}
          hint="Shown in the model picker"
          placeholder="OpenRouter"
          testid="provider-add-name"
          grow="short"
        />
        <TextField
          id="provider-add-url"
          label="Base URL"
          type="url"
          value={url}
          onInput={setUrl}
          error={errors.base_url}
          hint="Usually ends in /v1"
          placeholder="https://api.example.com/v1"
          testid="provider-add-url"
          grow
        />
      </div>
      <TextField
        id="provider-add-key"
        label="API key"
        type="password"
        value={key}
        onInput={setKey}
        error={errors.api_key}
        hint="Optional: leave empty for a local server without keys"
        testid="provider-add-key"
        grow
      />
      <StyleSelect
        id="provider-add-style"
        value={style}
        onChange={setStyle}
        detect
        error={errors.style}
        testid="provider-add-style"
      />
      <div class={tool.actions}>
        <button
          type="submit"
          class={page.primary}
          disabled={saving}
          aria-busy={saving}
          data-testid="provider-add-submit"
        >
          {saving ? "Adding and testing…" : "Add provider"}
        </button>
        {formError && (
          <span class={tool.fieldError} role="alert" data-testid="provider-add-error">
            {formError}
          </span>
        )}
        {added && (
          <span class={added.failed ? tool.error : tool.ok} role="status" data-testid="provider-added">
            {added.text}
          </span>
        )}
      </div>
    </form>
  );
}
