// One numeric AgentConfig field: a slider and a number input bound to the same draft, with its unit,
// its range, its inline error and whether it has been saved.
import type { FieldState } from "../../lib/use-agent-settings";
import style from "./style.module.css";

type Props = {
  name: string;
  label: string;
  min: number;
  max: number;
  unit: string;
  state: FieldState;
  onChange: (draft: string) => void;
};

export function SaveStatus({ name, state }: { name: string; state: FieldState }) {
  if (state.status === "idle") return null;
  return (
    <span class={style.status} data-testid={`field-status-${name}`} data-status={state.status}>
      {state.status === "saving" ? "Saving…" : "✓ Saved"}
    </span>
  );
}

export function FieldError({ name, error }: { name: string; error: string | null }) {
  if (!error) return null;
  return (
    <span class={style.error} role="alert" data-testid={`field-error-${name}`}>
      {error}
    </span>
  );
}

export function ConfigField({ name, label, min, max, unit, state, onChange }: Props) {
  const numeric = Number(state.draft);
  const sliderValue =
    state.draft.trim() !== "" && Number.isFinite(numeric) ? Math.min(max, Math.max(min, numeric)) : min;
  const id = `agent-${name}`;
  return (
    <div class={style.field} data-field={name}>
      <div class={style.head}>
        <label for={id} class={style.label}>
          {label}
        </label>
        <span class={style.range}>
          {min}–{max} {unit}
        </span>
        <SaveStatus name={name} state={state} />
      </div>
      <div class={style.controls}>
        <input
          type="range"
          min={min}
          max={max}
          step={1}
          value={sliderValue}
          aria-label={`${label} slider`}
          class={style.slider}
          onInput={(event) => onChange(event.currentTarget.value)}
          data-testid={`agent-slider-${name}`}
        />
        <input
          id={id}
          type="number"
          min={min}
          max={max}
          step={1}
          value={state.draft}
          class={style.number}
          aria-invalid={state.error ? "true" : undefined}
          onInput={(event) => onChange(event.currentTarget.value)}
          data-testid={`agent-field-${name}`}
        />
        <span class={style.unit}>{unit}</span>
      </div>
      <FieldError name={name} error={state.error} />
    </div>
  );
}
