// The kit's inputs: a labelled text field with its hint and its error (a key of the 400's `fields` map,
// e.g. "url", "auth.token" or "models.1.context_window"), a secret field (a password input that the
// browser does not fill), and how a 400's `fields` divide between a form's inputs and its one error line.
import style from "./style.module.css";

type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  type?: "text" | "url" | "password";
  /** The phone keyboard for a number typed as text (kept as typed, so a wrong value can be shown and fixed). */
  inputMode?: "numeric" | "decimal";
  placeholder?: string;
  testid?: string;
  /** Takes the row's free width (or, "short", a little of it). */
  grow?: boolean | "short";
};

export function TextField({
  id,
  label,
  value,
  onInput,
  error,
  hint,
  type = "text",
  inputMode,
  placeholder,
  testid,
  grow,
}: TextFieldProps) {
  const secret = type === "password";
  const keyboard = type === "url" ? ("url" as const) : inputMode;
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const attributes = {
    id,
    value,
    placeholder,
    autoComplete: secret ? "off" : undefined,
    spellcheck: false,
    autoCapitalize: "off" as const,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    onInput: (event: Event) => onInput((event.currentTarget as HTMLInputElement).value),
    "data-testid": testid,
  };
  return (
    <div class={`${style.field} ${grow === "short" ? style.short : grow ? style.grow : ""}`}>
      <label class={style.label} for={id}>
        {label}
      </label>
      {/* A password field for a secret, else text (a phone's url or number keyboard where it fits). */}
      {secret ? <input type="password" {...attributes} /> : <input type="text" inputMode={keyboard} {...attributes} />}
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
