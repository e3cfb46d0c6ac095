// A provider's models, editable: each one's context window, output cap, prices, whether its reasoning
// is sent back and whether it reads images; a model added by its name (saved at once, as Add says); and one "Save models" for the
// edits (use-model-draft.ts).
// The rows are cards of wrapping fields, so a phone stacks them without scrolling sideways.
import { useState } from "preact/hooks";
import { GUESSED_CONTEXT_WINDOW, type Provider } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import { formStyle as kit, TextField } from "../../../components/settings-form";
import { type ModelDraft, nameProblem, newDraft, type PriceName } from "./model-draft";
import style from "./style.module.css";
import type { ModelDraftState } from "./use-model-draft";

type Props = { provider: Provider; draft: ModelDraftState };

export function ModelTable({ provider, draft }: Props) {
  const base = `provider-${provider.id}-models`;
  return (
    <section class={style.models} aria-labelledby={`${base}-title`}>
      <h4 id={`${base}-title`} class={style.modelsTitle}>
        Models {draft.rows.length > 0 && <span class={style.count}>({draft.rows.length})</span>}
      </h4>
      {draft.rows.length === 0 ? (
        <p class={kit.muted} data-testid="provider-models-empty">
          No models yet. Add one by the name the server knows it by, or test the provider to see what it lists.
        </p>
      ) : (
        <form
          id={`${base}-form`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void draft.save();
          }}
        >
          <ul class={style.modelList} aria-label={`Models of ${provider.name}`}>
            {draft.rows.map((row, index) => (
              <ModelRow key={row.key} id={`${base}-${row.key}`} row={row} at={`models.${index}`} draft={draft} />
            ))}
          </ul>
        </form>
      )}
      <AddModel id={`${base}-add`} draft={draft} />
      {(draft.rows.length > 0 || draft.dirty) && <SaveLine form={`${base}-form`} draft={draft} />}
    </section>
  );
}

const PRICES: { name: PriceName; label: string; testid: string }[] = [
  { name: "input", label: "Input", testid: "input" },
  { name: "cached_input", label: "Cached input", testid: "cached" },
  { name: "output", label: "Output", testid: "output" },
];

type RowProps = { id: string; row: ModelDraft; at: string; draft: ModelDraftState };

function ModelRow({ id, row, at, draft }: RowProps) {
  const errors = draft.errors;
  const set = (patch: Partial<ModelDraft>) => draft.edit(row.key, patch);
  return (
    <li class={style.model} aria-labelledby={`${id}-name`} data-testid="provider-model" data-model={row.id}>
      <div class={style.modelHead}>
        <span id={`${id}-name`} class={style.modelName}>
          {row.id}
        </span>
        <button
          type="button"
          class={page.danger}
          aria-label={`Remove ${row.id}`}
          onClick={() => draft.remove(row.key)}
          data-testid="provider-model-remove"
        >
          Remove
        </button>
      </div>
      {errors[`${at}.id`] && (
        <p class={kit.fieldError} role="alert" data-testid="provider-model-name-error">
          {errors[`${at}.id`]}
        </p>
      )}
      <div class={kit.row}>
        <TextField
          id={`${id}-window`}
          label="Context window (tokens)"
          value={row.window}
          onInput={(window) => set({ window })}
          error={errors[`${at}.context_window`]}
          hint={row.window === String(GUESSED_CONTEXT_WINDOW) ? "A guess: set the model's real window" : undefined}
          inputMode="numeric"
          testid="provider-model-window"
          grow="short"
        />
        <TextField
          id={`${id}-cap`}
          label="Output cap (tokens)"
          value={row.outputCap}
          onInput={(outputCap) => set({ outputCap })}
          error={errors[`${at}.max_output_tokens`]}
          inputMode="numeric"
          placeholder="auto"
          testid="provider-model-output-cap"
          grow="short"
        />
      </div>
      <fieldset class={style.prices} aria-describedby={`${id}-prices-hint`}>
        <legend class={kit.label}>Prices per million tokens</legend>
        <span id={`${id}-prices-hint`} class={kit.hint}>
          Optional: all three, or none (then no cost is shown).
        </span>
        <div class={kit.row}>
          {PRICES.map(({ name, label, testid }) => (
            <TextField
              key={name}
              id={`${id}-${name}`}
              label={label}
              value={row.prices[name]}
              onInput={(value) => set({ prices: { ...row.prices, [name]: value } })}
              error={errors[`${at}.prices.${name}`]}
              inputMode="decimal"
              placeholder="0.00"
              testid={`provider-model-price-${testid}`}
              grow="short"
            />
          ))}
        </div>
        {errors[`${at}.prices`] && (
          <p class={kit.fieldError} role="alert">
            {errors[`${at}.prices`]}
          </p>
        )}
      </fieldset>
      <div class={style.check}>
        <input
          id={`${id}-reasoning`}
          type="checkbox"
          checked={row.sendReasoning}
          aria-describedby={`${id}-reasoning-hint`}
          onChange={(event) => set({ sendReasoning: event.currentTarget.checked })}
          data-testid="provider-model-reasoning"
        />
        <div>
          <label for={`${id}-reasoning`}>Send reasoning back</label>
          <span id={`${id}-reasoning-hint`} class={`${kit.hint} ${style.block}`}>
            Only for servers that require it, e.g. DeepSeek with tools.
          </span>
        </div>
      </div>
      <div class={style.check}>
        <input
          id={`${id}-images`}
          type="checkbox"
          checked={row.readsImages}
          aria-describedby={`${id}-images-hint`}
          onChange={(event) => set({ readsImages: event.currentTarget.checked })}
          data-testid="provider-model-images"
        />
        <div>
          <label for={`${id}-images`}>Reads images</label>
          <span id={`${id}-images-hint`} class={`${kit.hint} ${style.block}`}>
            Attached images are sent to it as images; otherwise it gets only their names.
          </span>
        </div>
      </div>
    </li>
  );
}

/**
 * "Add a model": a name typed as the server knows it, added to the list and saved at once (with any edits
 * waiting above, as "Save models" would). Refused, the name stays typed and the reason shows.
 */
function AddModel({ id, draft }: { id: string; draft: ModelDraftState }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const add = async (event: Event) => {
    event.preventDefault();
    if (draft.saving) return;
    const wrong = nameProblem(name, draft.rows);
    setProblem(wrong);
    if (wrong) return;
    // In the list now, saved or (another row refused) waiting for "Save models" with the rest.
    setName("");
    await draft.save([newDraft(name.trim())]);
  };
  return (
    <form
      class={`${kit.row} ${style.addModel}`}
      noValidate
      onSubmit={(event) => void add(event)}
      aria-label="Add a model"
    >
      <TextField
        id={id}
        label="Add a model"
        value={name}
        onInput={setName}
        error={problem ?? undefined}
        hint={`Its name on the server; added and saved at once. The window starts at ${GUESSED_CONTEXT_WINDOW.toLocaleString("en-US")} tokens, a guess to correct.`}
        placeholder="gpt-4o-mini"
        testid="provider-add-model"
        grow
      />
      <button type="submit" class={style.addButton} disabled={draft.saving} data-testid="provider-add-model-button">
        {draft.saving ? "Adding…" : "Add"}
      </button>
    </form>
  );
}

/** Save models, Undo changes, and what the last save did. */
function SaveLine({ form, draft }: { form: string; draft: ModelDraftState }) {
  return (
    <div class={kit.actions}>
      <button
        type="submit"
        form={form}
        class={page.primary}
        disabled={draft.saving || !draft.dirty}
        // Without rows there is no form to submit: the last model removed is saved from here.
        onClick={draft.rows.length === 0 ? () => void draft.save() : undefined}
        data-testid="provider-models-save"
      >
        {draft.saving ? "Saving…" : "Save models"}
      </button>
      {draft.dirty && !draft.saving && (
        <button type="button" onClick={draft.discard} data-testid="provider-models-discard">
          Undo changes
        </button>
      )}
      {draft.formError ? (
        <span class={kit.fieldError} role="alert" data-testid="provider-models-error">
          {draft.formError}
        </span>
      ) : (
        <span class={draft.saved ? kit.ok : kit.muted} role="status" data-testid="provider-models-status">
          {draft.saved ? "Saved." : draft.dirty ? "Unsaved changes" : ""}
        </span>
      )}
    </div>
  );
}
