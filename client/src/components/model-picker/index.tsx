// The composer's model picker: a small button naming the model the next answer will use, opening the
// list of every model the user can pick, by provider (the operator's first), with each one's context
// window. Choosing one applies from the next turn; the list ends with a way to add models (Settings →
// Models). Arrow keys move through the list, Escape closes it. Not shown when there is nothing to choose
// and nothing the user could add.
import { useEffect } from "preact/hooks";
import type { AvailableModel, ModelRef } from "../../../../protocol";
import { windowWords } from "../../lib/model-words";
import {
  byProvider,
  findModel,
  modelLabel,
  refKey,
  refOf,
  refreshModels,
  sameModel,
  useModels,
} from "../../lib/use-models";
import { usePopover } from "../../lib/use-popover";
import { Link } from "../../ui/link";
import style from "./style.module.css";

type Props = {
  /** The conversation's own choice; null: the user's default. */
  value: ModelRef | null;
  onChoose: (model: ModelRef) => void;
  /** Why the last choice was not saved, in a sentence. */
  error?: string | null;
};

/** Moves the focus along the list's options with the arrow keys, Home and End. */
function moveFocus(event: KeyboardEvent, list: HTMLElement | null) {
  const keys: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
  if (!list || !(event.key in keys || event.key === "Home" || event.key === "End")) return;
  const options = [...list.querySelectorAll<HTMLButtonElement>("[role=menuitemradio]")];
  if (options.length === 0) return;
  event.preventDefault();
  const at = options.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    event.key === "Home"
      ? 0
      : event.key === "End"
        ? options.length - 1
        : (at + (keys[event.key] ?? 0) + options.length) % options.length;
  options[next]?.focus();
}

export function ModelPicker({ value, onChoose, error }: Props) {
  const models = useModels();
  const { open, setOpen, toggle, button, panel, onKeyDown } = usePopover();

  // Open, the focus goes to the model in use, so the arrow keys start from it; and the list is asked for
  // again, so a provider added in another tab is there.
  useEffect(() => {
    if (!open) return;
    void refreshModels();
    const list = panel.current;
    (list?.querySelector<HTMLElement>("[aria-checked=true]") ?? list?.querySelector("button"))?.focus();
  }, [open]);

  if (models.status !== "ready") return null;
  const { list } = models;
  if (list.models.length < 2 && !list.user_providers) return null;
  const current = findModel(list.models, value) ?? findModel(list.models, list.default) ?? list.models[0];
  if (!current) return null;
  const choose = (model: AvailableModel) => {
    setOpen(false);
    button.current?.focus();
    if (!sameModel(refOf(model), refOf(current)) || !value) onChoose(refOf(model));
  };

  return (
    <div class={style.anchor}>
      <button
        ref={button}
        type="button"
        class={style.button}
        aria-haspopup="menu"
        aria-expanded={open ? "true" : "false"}
        aria-controls="model-picker-list"
        aria-label={`Model: ${modelLabel(current)} (${current.provider_name}). Choose another`}
        title={`${modelLabel(current)} · ${current.provider_name}`}
        onClick={toggle}
        onKeyDown={onKeyDown}
        data-testid="model-picker"
        data-model={current.model}
        data-provider={current.provider_id}
      >
        <span class={style.name}>{current.demo ? "Demo" : current.model}</span>
        <span class={style.caret} aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div
          ref={panel}
          id="model-picker-list"
          class={style.panel}
          role="menu"
          aria-label="Models"
          onKeyDown={(event) => {
            onKeyDown(event);
            moveFocus(event, panel.current);
          }}
          data-testid="model-picker-list"
        >
          {byProvider(list.models).map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a menu's group of items (WAI-ARIA menu pattern), not a form's fieldset
            <div key={group.id} role="group" aria-label={group.name} class={style.group}>
              <div class={style.provider} aria-hidden="true">
                {group.name}
              </div>
              {group.models.map((m) => {
                const checked = sameModel(refOf(m), refOf(current));
                return (
                  <button
                    key={refKey(refOf(m))}
                    type="button"
                    role="menuitemradio"
                    aria-checked={checked ? "true" : "false"}
                    class={style.option}
                    onClick={() => choose(m)}
                    data-testid="model-option"
                    data-model={m.model}
                    data-provider={m.provider_id}
                  >
                    <span class={style.check} aria-hidden="true">
                      {checked ? "✓" : ""}
                    </span>
                    <span class={style.optionName}>{modelLabel(m)}</span>
                    <span class={style.meta}>{m.demo ? "offline" : windowWords(m.context_window)}</span>
                  </button>
                );
              })}
            </div>
          ))}
          {list.user_providers && (
            <Link href="/settings/models" class={style.manage} data-testid="model-picker-manage">
              Add or change models in Settings
            </Link>
          )}
          <p class={style.note}>Applies from the next answer in this chat.</p>
        </div>
      )}
      {error && (
        <span class={style.error} role="alert" data-testid="model-picker-error">
          {error}
        </span>
      )}
    </div>
  );
}
