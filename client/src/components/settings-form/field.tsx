// The kit's inputs: a labelled text field or choice (a <select>) with its hint and its error (a key of
// the 400's `fields` map, e.g. "url", "auth.token" or "models.1.context_window"), a secret field (a
// password input that the browser does not fill), and how a 400's `fields` divide between a form's inputs
// and its one error line.
import type { ComponentChildren } from "preact";
import style from "./style.module.css";

type FrameProps = {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  testid?: string;
  /** Takes the row's free width (or, "short", a little of it). */
  grow?: boolean | "short";
  /** The input or select, whose id is `id`. */
  children: ComponentChildren;
};

type TextFieldProps = Omit<FrameProps, "children"> & {
  value: string;
  onInput: (value: string) => void;
  type?: "text" | "url" | "password";
  /** The phone keyboard for a number typed as text (kept as typed, so a wrong value can be shown and fixed). */
  inputMode?: "numeric" | "decimal";
  placeholder?: string;
};

/** What the hint and the error (when there are) say of the input: its aria-describedby. */
function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

/** A field's label, its input, and under it its hint and its error. */
function FieldFrame({ id, label, hint, error, testid, grow, children }: FrameProps) {
  return (
    <div class={`${style.field} ${grow === "short" ? style.short : grow ? style.grow : ""}`.trim()}>
      <label class={style.label} for={id}>
        {label}
      </label>
      {children}
      {hint && (
        <span id={`${id}-hint`} class={style.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class={style.fieldError} role="alert" data-testid={testid && `${testid}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

export function TextField({ value, onInput, type = "text", inputMode, placeholder, ...frame }: TextFieldProps) {
  const { id, hint, error, testid } = frame;
  const secret = type === "password";
  const keyboard = type === "url" ? ("url" as const) : inputMode;
  const attributes = {
    id,
    value,
    placeholder,
    autoComplete: secret ? "off" : undefined,
    spellcheck: false,
    autoCapitalize: "off" as const,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, hint, error),
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement).value),
    "data-testid": testid,
  };
  return (
    <FieldFrame {...frame}>
      {/* A password field for a secret, else text (a phone's url or number keyboard where it fits). */}
      {secret ? <input type="password" {...attributes} /> : <input type="text" inputMode={keyboard} {...attributes} />}
    </FieldFrame>
  );
}

type SelectFieldProps<V extends string> = Omit<FrameProps, "children"> & {
  value: V;
  onChange: (value: V) => void;
  /** Its <option>s, whose values are the V's. */
  children: ComponentChildren;
};

/** A labelled choice (a <select>) with its hint and its error, as a text field has them. */
export function SelectField<V extends string>({ value, onChange, children, ...frame }: SelectFieldProps<V>) {
  const { id, hint, error, testid } = frame;
  return (
    <FieldFrame {...frame}>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        onChange={(event) => onChange(event.currentTarget.value as V)}
        data-testid={testid}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/** A secret (an API key, a token): typed, never shown again, never filled in by the browser. */
export function SecretField(props: Omit<TextFieldProps, "type" | "inputMode" | "placeholder">) {
  return <TextField {...props} type="password" />;
}

/** A 400's field errors this form shows by its inputs, and one line for the rest (or the error's message). */
export function splitErrors(
  error: { message: string; fields: Record<string, string> },
  shown: readonly string[],
): { fields: Record<string, string>; form: string | null } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const [key, message] of Object.entries(error.fields)) {
    if (shown.includes(key)) fields[key] = message;
    else rest.push(key === "_" ? message : `${key}: ${message}`);
  }
  if (Object.keys(fields).length === 0 && rest.length === 0) return { fields, form: error.message };
  return { fields, form: rest.length ? rest.join("; ") : null };
}
