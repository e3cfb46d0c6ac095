// Settings → Web, "Your own search provider": searches through the user's SearXNG instance or their
// Brave Search, Tavily or Exa key instead of the server's provider (or where the server has none). The
// key is write-only: a saved one shows as "saved", can be replaced by typing a new one, or forgotten.
// A refusal's `fields` show under their inputs, anything else on the form's line.
import { useState } from "preact/hooks";
import {
  providerNeedsKey,
  SEARCH_PROVIDER_NAMES,
  SEARCH_PROVIDERS,
  type SearchProvider,
  type WebSettings,
  type WebSettingsPatch,
} from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import {
  FormActions,
  FormStatus,
  formStyle as kit,
  SecretField,
  SelectField,
  SubmitButton,
  TextField,
  useFormSubmit,
} from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import style from "./style.module.css";

type Props = {
  settings: WebSettings;
  save: (patch: WebSettingsPatch) => Promise<ApiResult<WebSettings>>;
};

export function ProviderForm({ settings, save }: Props) {
  const [provider, setProvider] = useState<SearchProvider | "">(settings.search_provider ?? "");
  const [url, setUrl] = useState(settings.search_url ?? "");
  const [key, setKey] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const submitting = useFormSubmit(["search_provider", "search_url", "search_key"]);
  const needsKey = provider !== "" && providerNeedsKey(provider);
  const server = settings.operator.search_provider;

  const send = async (patch: WebSettingsPatch, success: string) => {
    setDone(null);
    const result = await submitting.send(() => save(patch));
    if (!result.ok) return submitting.refuse(result.error);
    submitting.clear();
    setKey("");
    setProvider(result.data.search_provider ?? "");
    setDone(success);
  };

  const onSubmit = submitting.submit(() => {
    const patch: WebSettingsPatch = { search_provider: provider || null };
    if (provider === "searxng") patch.search_url = url.trim() || null;
    if (needsKey && key.trim()) patch.search_key = key.trim();
    return send(
      patch,
      provider ? "Saved: searches go through your provider." : "Saved: searches go through the server's provider.",
    );
  });

  // Without its key, a provider that needs one cannot be used: forgetting the key goes back to the server's.
  const forget = () => {
    const saved = settings.search_provider;
    const patch: WebSettingsPatch =
      saved && providerNeedsKey(saved) ? { search_provider: null, search_key: null } : { search_key: null };
    void send(patch, "The key is forgotten.");
  };

  return (
    <form class={`${kit.form} ${style.provider}`} noValidate onSubmit={onSubmit} data-testid="web-provider-form">
      <h2 class={kit.formTitle}>Your own search provider</h2>
      <p class={`${kit.muted} ${style.note}`}>
        {server ? `Instead of this server's (${SEARCH_PROVIDER_NAMES[server]}). ` : "This server has none of its own. "}
        Searches through your provider do not count towards this server's limits. Keys are stored encrypted and never
        shown again.
      </p>
      <div class={kit.row}>
        <SelectField
          id="web-provider"
          label="Provider"
          value={provider}
          onChange={(value: SearchProvider | "") => {
            setProvider(value);
            setDone(null);
          }}
          error={submitting.errors.search_provider}
          testid="web-provider"
          grow="short"
        >
          <option value="">Use the server's</option>
          {SEARCH_PROVIDERS.map((name) => (
            <option key={name} value={name}>
              {SEARCH_PROVIDER_NAMES[name]}
            </option>
          ))}
        </SelectField>
        {provider === "searxng" && (
          <TextField
            id="web-search-url"
            label="Instance URL"
            type="url"
            value={url}
            onInput={setUrl}
            placeholder="https://searx.example.org"
            hint="Its JSON API must be switched on (search.formats: json)."
            error={submitting.errors.search_url}
            testid="web-search-url"
            grow
          />
        )}
        {needsKey && (
          <SecretField
            id="web-search-key"
            label={settings.search_key_set ? "API key (saved)" : "API key"}
            value={key}
            onInput={setKey}
            hint={settings.search_key_set ? "A key is saved; type a new one to replace it." : undefined}
            error={submitting.errors.search_key}
            testid="web-search-key"
            grow
          />
        )}
      </div>
      <FormActions
        error={submitting.formError}
        errorTestid="web-provider-form-error"
        status={<FormStatus text={done} testid="web-provider-saved" />}
      >
        <SubmitButton saving={submitting.saving} label="Save" savingLabel="Saving…" testid="web-provider-save" />
        {settings.search_key_set && (
          <button
            type="button"
            class={page.danger}
            disabled={submitting.saving}
            onClick={forget}
            data-testid="web-key-forget"
          >
            Forget key
          </button>
        )}
      </FormActions>
    </form>
  );
}
