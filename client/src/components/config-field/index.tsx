// One numeric AgentConfig field: a slider and a number input bound to the same draft, with its unit,
// its range, what it does and its default (help text the inputs are described by), its inline error
// and whether it has been saved.
import type { FieldState } from "../../lib/use-agent-settings";
import style from "./style.module.css";

type Props = {
  name: string;
  label: string;
  min: number;
  max: number;
  unit: string;
  /** What the field does, in a sentence or two. */
  help?: string;
  /** Shown after the help text as "Default: …". */
  defaultValue?: number | string;
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

export function FieldError({ name, error, id }: { name: string; error: string | null; id?: string }) {
  if (!error) return null;
  return (
    <span id={id} class={style.error} role="alert" data-testid={`field-error-${name}`}>
      {error}
    </span>
  );
}

/** What a setting does and its default, under its label; its inputs point at it with aria-describedby. */
export function FieldHelp(props: {
  id: string;
  name: string;
  help?: string;
  defaultValue?: number | string;
  unit?: string;
}) {
  if (!props.help && props.defaultValue === undefined) return null;
  return (
    <p id={props.id} class={style.help} data-testid={`field-help-${props.name}`}>
      {props.help}
      {props.defaultValue !== undefined && (
        <span class={style.default}>
          {" "}
          Default: {props.defaultValue}
          {props.unit ? ` ${props.unit}` : ""}.
        </span>
      )}
    </p>
  );
}

export function ConfigField({ name, label, min, max, unit, help, defaultValue, state, onChange }: Props) {
  const numeric = Number(state.draft);
  const sliderValue =
    state.draft.trim() !== "" && Number.isFinite(numeric) ? Math.min(max, Math.max(min, numeric)) : min;
  const id = `agent-${name}`;
  const described =
    [help || defaultValue !== undefined ? `${id}-help` : "", state.error ? `${id}-error` : ""]
      .filter(Boolean)
      .join(" ") || undefined;
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
      <FieldHelp id={`${id}-help`} name={name} help={help} defaultValue={defaultValue} unit={unit} />
      <div class={style.controls}>
        <input
          type="range"
          min={min}
          max={max}
          step={1}
          value={sliderValue}
          aria-label={`${label} slider`}
          aria-describedby={described}
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
          aria-describedby={described}
          onInput={(event) => onChange(event.currentTarget.value)}
          data-testid={`agent-field-${name}`}
        />
        <span class={style.unit}>{unit}</span>
      </div>
      <FieldError name={name} error={state.error} id={`${id}-error`} />
    </div>
  );
}
