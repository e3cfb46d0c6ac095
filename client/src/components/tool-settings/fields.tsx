// The inputs the Tools tab's forms share: a labelled text field with its hint and its error (a key of
// the 400's `fields` map, e.g. "url" or "auth.token"), and the authentication choice with its secret
// inputs (password fields, never autofilled).
import type { McpAuthInput } from "../../../../protocol";
import style from "./style.module.css";

export type AuthType = McpAuthInput["type"];
export type AuthDraft = { type: AuthType; token: string; headerName: string; headerValue: string };
export const EMPTY_AUTH: AuthDraft = { type: "none", token: "", headerName: "", headerValue: "" };

export function authInput(draft: AuthDraft): McpAuthInput {
  if (draft.type === "bearer") return { type: "bearer", token: draft.token };
  if (draft.type === "header") return { type: "header", name: draft.headerName, value: draft.headerValue };
  return { type: "none" };
}

/** The `fields` keys each form shows by an input; any other key is shown with the form's message. */
export const AUTH_FIELDS = ["auth", "auth.type", "auth.token", "auth.name", "auth.value"];

type TextFieldProps = {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  type?: "text" | "url" | "password";
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
  placeholder,
  testid,
  grow,
}: TextFieldProps) {
  const secret = type === "password";
  const inputMode = type === "url" ? ("url" as const) : undefined;
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
      {/* A password field for a secret, else text (a url's keyboard on a phone for a URL). */}
      {secret ? <input type="password" {...attributes} /> : <input type="text" inputMode={inputMode} {...attributes} />}
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

type AuthFieldsProps = {
  id: string;
  draft: AuthDraft;
  onChange: (draft: AuthDraft) => void;
  errors: Record<string, string>;
  /** data-testid prefix: `<prefix>-auth`, `<prefix>-token`, … */
  testid: string;
};

export function AuthFields({ id, draft, onChange, errors, testid }: AuthFieldsProps) {
  const set = (patch: Partial<AuthDraft>) => onChange({ ...draft, ...patch });
  const typeError = errors.auth ?? errors["auth.type"];
  return (
    <>
      <div class={style.field}>
        <label class={style.label} for={`${id}-auth`}>
          Authentication
        </label>
        <select
          id={`${id}-auth`}
          value={draft.type}
          aria-invalid={typeError ? true : undefined}
          aria-describedby={typeError ? `${id}-auth-error` : undefined}
          onChange={(event) => set({ type: event.currentTarget.value as AuthType })}
          data-testid={`${testid}-auth`}
        >
          <option value="none">None</option>
          <option value="bearer">Bearer token</option>
          <option value="header">Custom header</option>
        </select>
        {typeError && (
          <span id={`${id}-auth-error`} class={style.fieldError} role="alert">
            {typeError}
          </span>
        )}
      </div>
      {draft.type === "bearer" && (
        <TextField
          id={`${id}-token`}
          label="Bearer token"
          type="password"
          value={draft.token}
          onInput={(token) => set({ token })}
          error={errors["auth.token"]}
          hint="Sent as Authorization: Bearer …"
          testid={`${testid}-token`}
          grow
        />
      )}
      {draft.type === "header" && (
        <div class={style.row}>
          <TextField
            id={`${id}-header-name`}
            label="Header name"
            value={draft.headerName}
            onInput={(headerName) => set({ headerName })}
            error={errors["auth.name"]}
            placeholder="X-Api-Key"
            testid={`${testid}-header-name`}
            grow
          />
          <TextField
            id={`${id}-header-value`}
            label="Header value"
            type="password"
            value={draft.headerValue}
            onInput={(headerValue) => set({ headerValue })}
            error={errors["auth.value"]}
            testid={`${testid}-header-value`}
            grow
          />
        </div>
      )}
    </>
  );
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
