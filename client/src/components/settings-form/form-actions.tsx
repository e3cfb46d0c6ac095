// A settings form's last line: its buttons, the submit button that says it is working ("Saving…"), the
// form's one error line (what its inputs do not show) and, after a success, a status line.
import type { ComponentChildren } from "preact";
import { pageStyle as page } from "../page-frame";
import style from "./style.module.css";

type SubmitProps = {
  saving: boolean;
  label: string;
  /** The words while it is sent: "Saving…", "Adding and testing…". */
  savingLabel: string;
  testid: string;
  /** Marks the button busy while it is sent (a slow request: the provider is tested first). */
  busy?: boolean;
};

export function SubmitButton({ saving, label, savingLabel, testid, busy }: SubmitProps) {
  return (
    <button
      type="submit"
      class={page.primary}
      disabled={saving}
      aria-busy={busy ? saving : undefined}
      data-testid={testid}
    >
      {saving ? savingLabel : label}
    </button>
  );
}

/** The form's error line, announced when it appears; `class` where a page draws it its own way. */
export function FormError({
  error,
  testid,
  class: className,
}: {
  error: string | null;
  testid: string;
  class?: string;
}) {
  if (!error) return null;
  return className ? (
    <p class={className} role="alert" data-testid={testid}>
      {error}
    </p>
  ) : (
    <span class={style.fieldError} role="alert" data-testid={testid}>
      {error}
    </span>
  );
}

/** What a success did, as the form's status line; `failed` where it was saved but did not work. */
export function FormStatus({
  text,
  failed,
  testid,
}: {
  text: string | null | undefined;
  failed?: boolean;
  testid: string;
}) {
  if (!text) return null;
  return (
    <span class={failed ? style.error : style.ok} role="status" data-testid={testid}>
      {text}
    </span>
  );
}

type ActionsProps = {
  error: string | null;
  errorTestid: string;
  /** After the error: what a success did, as a status line. */
  status?: ComponentChildren;
  children: ComponentChildren;
};

export function FormActions({ error, errorTestid, status, children }: ActionsProps) {
  return (
    <div class={style.actions}>
      {children}
      <FormError error={error} testid={errorTestid} />
      {status}
    </div>
  );
}
