// The Models tab: the default model for new conversations, and the user's own OpenAI-compatible providers
// (docs/protocol.md "Models"). Each provider can be tested, given a new key, switched to the other API
// style, deleted, and its models edited; the form under the list adds one, tested by the server at once.
// When the operator has turned user providers off, only the default model is shown.

import { pageStyle as page } from "../../../components/page-frame";
import { formStyle as kit } from "../../../components/settings-form";
import { useModels } from "../../../lib/use-models";
import { useNow } from "../../../lib/use-now";
import { useProviders } from "../../../lib/use-providers";
import { AddProviderForm } from "./add-provider-form";
import { DefaultModel } from "./default-model";
import { ProviderRow } from "./provider-row";
import style from "./style.module.css";

export function ModelSettings() {
  const models = useModels();
  const { state, testing, rowErrors, tests, test, create, update, remove } = useProviders();
  const now = useNow();
  const off = state.status === "unavailable" || (models.status === "ready" && !models.list.user_providers);
  return (
    <section data-testid="model-settings" data-status={off ? "off" : state.status}>
      <p class={kit.intro}>
        {off
          ? "The model new conversations start with."
          : "The model new conversations start with, and your own providers: OpenAI, OpenRouter, or a server of your own such as llama.cpp, vLLM or Ollama. API keys are stored encrypted and never shown again."}
      </p>
      <DefaultModel state={models} />
      {off ? (
        <p class={page.muted} data-testid="providers-off">
          The operator of this app has turned off adding your own model providers.
        </p>
      ) : (
        <>
          <h2 class={`${kit.formTitle} ${style.heading}`}>Your providers</h2>
          {state.status === "loading" && <p class={page.muted}>Loading…</p>}
          {state.status === "failed" && (
            <p class={page.statusError} role="alert">
              Could not load your providers: {state.message}
            </p>
          )}
          {state.status === "ready" && (
            <>
              {state.items.length === 0 ? (
                <p class={page.empty} data-testid="providers-empty">
                  No providers yet
                </p>
              ) : (
                <ul class={kit.servers} aria-label="Your providers">
                  {state.items.map((provider) => (
                    <ProviderRow
                      key={provider.id}
                      provider={provider}
                      now={now}
                      testing={testing[provider.id] ?? false}
                      error={rowErrors[provider.id]}
                      test={tests[provider.id]}
                      onTest={() => void test(provider)}
                      onStyle={(next) =>
                        void update(provider, { style: next }, { optimistic: { ...provider, style: next } })
                      }
                      onKey={async (api_key) => {
                        const result = await update(provider, { api_key }, { quiet: true });
                        if (result.ok) void test(result.data);
                        return result;
                      }}
                      onSaveModels={(models) => update(provider, { models }, { quiet: true })}
                      onDelete={() => remove(provider.id)}
                    />
                  ))}
                </ul>
              )}
              <AddProviderForm onCreate={create} />
            </>
          )}
        </>
      )}
    </section>
  );
}
