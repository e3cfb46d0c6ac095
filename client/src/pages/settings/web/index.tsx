// Settings → Web (docs/protocol.md "The web"): whether the agent may read web pages (web_fetch) and
// search the web (web_search), each a switch saved at once, with a line where the server's operator
// decided for the user (page reading switched off, no search provider); and the user's own search
// provider (provider-form.tsx). Which web tool calls need approval is the Tools tab's.
import { useState } from "preact/hooks";
import { SEARCH_PROVIDER_NAMES, type WebSettings as Settings, type WebSettingsPatch } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import { formStyle as kit } from "../../../components/settings-form";
import { SwitchRow } from "../../../ui/switch";
import { ProviderForm } from "./provider-form";
import { useWebSettings } from "./use-web-settings";

/** Where searches go, in words, or why there is nowhere. */
function searchHint(settings: Settings): { hint: string; blocked?: string } {
  const own = settings.search_provider;
  const server = settings.operator.search_provider;
  if (own) return { hint: `Searches go through your own provider, ${SEARCH_PROVIDER_NAMES[own]}.` };
  if (server) return { hint: `Searches go through this server's provider, ${SEARCH_PROVIDER_NAMES[server]}.` };
  return {
    hint: "The agent finds pages with a search provider.",
    blocked: "This server has no search provider: set your own below to let the agent search.",
  };
}

export function WebSettings() {
  const { state, save, show } = useWebSettings();
  const [switchError, setSwitchError] = useState<string | null>(null);
  if (state.status === "loading") return <p class={page.muted}>Loading…</p>;
  if (state.status === "failed")
    return (
      <p class={page.statusError} role="alert" data-testid="web-settings-error">
        {state.message}
      </p>
    );
  const { settings } = state;
  // A switch moves at once; refused, it goes back and says why.
  const toggle = async (patch: WebSettingsPatch & Partial<Pick<Settings, "fetch" | "search">>) => {
    setSwitchError(null);
    show({ ...settings, ...patch });
    const result = await save(patch);
    if (!result.ok) {
      show(settings);
      setSwitchError(`Could not save: ${result.error.message}`);
    }
  };
  const search = searchHint(settings);
  return (
    <section data-testid="web-settings">
      <p class={kit.intro}>
        The agent can search the web and read pages, yours and those it finds, and cites them in its answers as numbered
        sources. What a page says is never taken as an instruction.
      </p>
      <SwitchRow
        id="web-fetch"
        label="Let the agent read web pages"
        hint="It reads the links in your messages and the pages it finds."
        blocked={settings.operator.fetch ? undefined : "The server's operator switched page reading off."}
        checked={settings.fetch}
        onChange={(fetch) => void toggle({ fetch })}
      />
      <SwitchRow
        id="web-search"
        label="Let the agent search the web"
        hint={search.hint}
        blocked={search.blocked}
        checked={settings.search}
        onChange={(on) => void toggle({ search: on })}
      />
      {switchError && (
        <p class={kit.fieldError} role="alert" data-testid="web-switch-error">
          {switchError}
        </p>
      )}
      <ProviderForm settings={settings} save={save} />
    </section>
  );
}
