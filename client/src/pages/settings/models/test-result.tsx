// What the last Test of a provider found: how many models the server lists, and the ones the provider
// does not have yet, offered to add (saved with the rest of the list). Whether it works, or the failure's
// words, are on the row's status line already.
import { type DiscoveredModel, MAX_PROVIDER_MODELS, type ProviderTest } from "../../../../../protocol";
import { formStyle as kit } from "../../../components/settings-form";
import { plural } from "../../../lib/plural";
import { newDraft } from "./model-draft";
import style from "./style.module.css";
import type { ModelDraftState } from "./use-model-draft";

const NAMED = 5;

/** As the server prefills what it found (prefilledWindow). */
const draftOf = (found: DiscoveredModel) => newDraft(found.id, found.context_window, found.image_input);

function names(models: DiscoveredModel[]): string {
  const shown = models.slice(0, NAMED).map((m) => m.id);
  return models.length > NAMED ? `${shown.join(", ")} and ${models.length - NAMED} more` : shown.join(", ");
}

/** "The server lists 3 models; 2 are not in your list yet: a, b." */
function foundText(test: ProviderTest, missing: DiscoveredModel[]): string {
  if (test.models.length === 0) return "The server does not list its models.";
  const listed = `The server lists ${plural(test.models.length, "model")}`;
  if (missing.length === 0) return `${listed}, all in your list below.`;
  if (missing.length === test.models.length) return `${listed}, not in your list yet: ${names(missing)}.`;
  return `${listed}; ${missing.length} ${missing.length === 1 ? "is" : "are"} not in your list yet: ${names(missing)}.`;
}

export function TestResult({ test, draft }: { test: ProviderTest; draft: ModelDraftState }) {
  const have = new Set(draft.rows.map((row) => row.id));
  const room = Math.max(0, MAX_PROVIDER_MODELS - draft.rows.length);
  const missing = test.models.filter((m) => !have.has(m.id)).slice(0, room);
  if (!test.ok && missing.length === 0) return null;
  return (
    <div class={style.found}>
      <p class={test.ok ? kit.ok : kit.muted} role="status" data-testid="provider-test-result">
        {foundText(test, missing)}
      </p>
      {missing.length > 0 && (
        <button
          type="button"
          disabled={draft.saving}
          onClick={() => void draft.save(missing.map(draftOf))}
          data-testid="provider-add-found"
        >
          {draft.saving ? "Adding…" : missing.length === 1 ? `Add ${missing[0]?.id}` : `Add all ${missing.length}`}
        </button>
      )}
    </div>
  );
}
