// The default model for new conversations: every model the user can pick (GET /api/models), grouped by
// provider, saved as soon as it is chosen (PUT /api/models/default). The page-wide list follows, so the
// composer's picker shows the new default at once.
import { useState } from "preact/hooks";
import type { ModelRef } from "../../../../../protocol";
import { ModelOptions } from "../../../components/model-picker/model-options";
import { pageStyle as page } from "../../../components/page-frame";
import { formStyle as kit } from "../../../components/settings-form";
import { type ModelsState, parseRefKey, refKey } from "../../../lib/use-models";
import { saveDefaultModel } from "../../../lib/use-providers";
import style from "./style.module.css";

export function DefaultModel({ state }: { state: ModelsState }) {
  const [choosing, setChoosing] = useState<ModelRef | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  if (state.status === "loading") return <p class={page.muted}>Loading your models…</p>;
  if (state.status === "failed")
    return (
      <p class={page.statusError} role="alert">
        Could not load your models: {state.message}
      </p>
    );

  const choose = async (key: string) => {
    const ref = parseRefKey(key);
    if (!ref) return;
    setChoosing(ref);
    setOutcome(null);
    const result = await saveDefaultModel(ref);
    setChoosing(null);
    setOutcome(
      result.ok
        ? { ok: true, text: "Saved." }
        : { ok: false, text: `Not saved: ${result.error.fields.model ?? result.error.message}` },
    );
  };

  return (
    <div class={`${kit.field} ${style.section}`}>
      <label class={kit.label} for="models-default">
        Default model for new conversations
      </label>
      <select
        id="models-default"
        value={refKey(choosing ?? state.list.default)}
        disabled={choosing !== null}
        aria-describedby="models-default-hint"
        onChange={(event) => void choose(event.currentTarget.value)}
        data-testid="models-default-select"
      >
        <ModelOptions models={state.list.models} />
      </select>
      <span id="models-default-hint" class={kit.hint}>
        A conversation can still switch to another model with the model button by the message box.
      </span>
      {choosing && (
        <span class={kit.muted} role="status">
          Saving…
        </span>
      )}
      {outcome && (
        <span
          class={outcome.ok ? kit.ok : kit.fieldError}
          role={outcome.ok ? "status" : "alert"}
          data-testid={outcome.ok ? "models-default-status" : "models-default-error"}
        >
          {outcome.text}
        </span>
      )}
    </div>
  );
}
