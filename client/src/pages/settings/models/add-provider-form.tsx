// "Add a provider": name, base URL, API key and API style, checked with the protocol's own schema before
// it is sent. The server tests the provider and lists its models before it answers ("Adding and
// testing…"); a provider whose test fails is saved anyway, and the form says so. A refusal shows by its
// fields (the 400's `fields`) or as one sentence (a 409: too many providers); what the user typed stays.
import { useState } from "preact/hooks";
import { type ApiStyle, type Provider, type ProviderCreate, ProviderCreateSchema } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import {
  FormActions,
  FormStatus,
  formStyle as kit,
  SecretField,
  SubmitButton,
  TextField,
  useFormSubmit,
} from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import { plural } from "../../../lib/plural";
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
  const [added, setAdded] = useState<{ failed: boolean; text: string } | null>(null);
  const form = useFormSubmit(SHOWN);

  const submit = async () => {
    setAdded(null);
    const body = {
      name: name.trim(),
      base_url: url.trim(),
      ...(key.trim() ? { api_key: key } : {}),
      ...(style ? { style } : {}),
    };
    const created = await form.create(ProviderCreateSchema.safeParse(body), onCreate);
    if (!created) return;
    setName("");
    setUrl("");
    setKey("");
    setStyle("");
    setAdded(addedText(created));
  };

  return (
    <form
      class={`${page.editor} ${kit.form}`}
      noValidate
      aria-labelledby="provider-add-title"
      onSubmit={form.submit(submit)}
      data-testid="provider-add-form"
    >
      <h2 id="provider-add-title" class={kit.formTitle}>
        Add a provider
      </h2>
      <ProviderFields
        draft={{ name, url, key, style }}
        set={{ name: setName, url: setUrl, key: setKey, style: setStyle }}
        errors={form.errors}
      />
      <FormActions
        error={form.formError}
        errorTestid="provider-add-error"
        status={<FormStatus text={added?.text} failed={added?.failed} testid="provider-added" />}
      >
        <SubmitButton
          saving={form.saving}
          label="Add provider"
          savingLabel="Adding and testing…"
          testid="provider-add-submit"
          busy
        />
      </FormActions>
    </form>
  );
}

type Draft = { name: string; url: string; key: string; style: ApiStyle | "" };

type FieldsProps = {
  draft: Draft;
  set: { [K in keyof Draft]: (value: Draft[K]) => void };
  errors: Record<string, string>;
};

/** Name, base URL, API key and API style, each with its hint and error. */
function ProviderFields({ draft, set, errors }: FieldsProps) {
  return (
    <>
      <div class={kit.row}>
        <TextField
          id="provider-add-name"
          label="Name"
          value={draft.name}
          onInput={set.name}
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
          value={draft.url}
          onInput={set.url}
          error={errors.base_url}
          hint="Usually ends in /v1"
          placeholder="https://api.example.com/v1"
          testid="provider-add-url"
          grow
        />
      </div>
      <SecretField
        id="provider-add-key"
        label="API key"
        value={draft.key}
        onInput={set.key}
        error={errors.api_key}
        hint="Optional: leave empty for a local server without keys"
        testid="provider-add-key"
        grow
      />
      <StyleSelect
        id="provider-add-style"
        value={draft.style}
        onChange={set.style}
        detect
        error={errors.style}
        testid="provider-add-style"
      />
    </>
  );
}
