// One provider: its name, base URL, whether a key is stored (never the key), its last test, and its
// actions: Test, Replace key, Delete (after a confirm step); its API style; and its models, editable.
import type { ApiStyle, Provider, ProviderModel, ProviderTest } from "../../../../../protocol";
import { RowActions, SettingsRow } from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import { KeyForm } from "./key-form";
import { ModelTable } from "./model-table";
import { keyText, providerStatus } from "./provider-status";
import style from "./style.module.css";
import { StyleSelect } from "./style-select";
import { TestResult } from "./test-result";
import { useModelDraft } from "./use-model-draft";

type Props = {
  provider: Provider;
  now: number;
  testing: boolean;
  error?: string;
  /** The answer of the last Test on this page, if any. */
  test?: ProviderTest;
  onTest: () => void;
  onStyle: (style: ApiStyle) => void;
  onKey: (key: string | null) => Promise<ApiResult<Provider>>;
  onSaveModels: (models: ProviderModel[]) => Promise<ApiResult<Provider>>;
  onDelete: () => Promise<boolean>;
};

const DELETE_CONSEQUENCE = "Its key is erased, and conversations that use its models switch to your default model.";

export function ProviderRow(props: Props) {
  const { provider, testing } = props;
  const draft = useModelDraft(provider, props.onSaveModels);
  const status = providerStatus(provider, testing, props.now);
  return (
    <SettingsRow
      id={provider.id}
      idPrefix="provider"
      name={provider.name}
      url={provider.base_url}
      auth={keyText(provider)}
      status={status}
      testids={{ row: "provider", url: "provider-url", auth: "provider-key", status: "provider-status" }}
    >
      {props.test && !testing && <TestResult test={props.test} draft={draft} />}
      <RowActions
        testid="provider"
        name={provider.name}
        testing={testing}
        testLabel="Test"
        onTest={props.onTest}
        secret={{ label: provider.has_key ? "Replace key" : "Set a key", testid: "replace-key" }}
        secretForm={(close) => <KeyForm provider={provider} onSave={props.onKey} onClose={close} />}
        error={props.error}
        consequence={DELETE_CONSEQUENCE}
        onDelete={props.onDelete}
      />
      <div class={style.setting}>
        <StyleSelect
          id={`provider-style-${provider.id}`}
          value={provider.style}
          onChange={(next) => {
            if (next && next !== provider.style) props.onStyle(next);
          }}
          testid="provider-style"
        />
      </div>
      <ModelTable provider={provider} draft={draft} />
    </SettingsRow>
  );
}
