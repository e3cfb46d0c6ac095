// The authentication choice of the Tools tab's forms (None, Bearer token, Custom header, OAuth) with its
// secret inputs: password fields, never autofilled, never filled from what is stored. OAuth needs no
// secret; a client id and secret for a server without dynamic registration sit under "Advanced".
import type { McpAuthInput } from "../../../../../protocol";
import { formStyle as kit, SecretField, TextField } from "../../../components/settings-form";
import style from "./style.module.css";

export type AuthType = McpAuthInput["type"];
export type AuthDraft = {
  type: AuthType;
  token: string;
  headerName: string;
  headerValue: string;
  clientId?: string;
  clientSecret?: string;
};
export const EMPTY_AUTH: AuthDraft = { type: "none", token: "", headerName: "", headerValue: "" };

export function authInput(draft: AuthDraft): McpAuthInput {
  if (draft.type === "bearer") return { type: "bearer", token: draft.token };
  if (draft.type === "header") return { type: "header", name: draft.headerName, value: draft.headerValue };
  if (draft.type === "oauth") {
    const clientId = draft.clientId?.trim() ?? "";
    const clientSecret = draft.clientSecret ?? "";
    return {
      type: "oauth",
      ...(clientId ? { client_id: clientId } : {}),
      ...(clientSecret ? { client_secret: clientSecret } : {}),
    };
  }
  return { type: "none" };
}

/** The `fields` keys each form shows by an input; any other key is shown with the form's message. */
export const AUTH_FIELDS = [
  "auth",
  "auth.type",
  "auth.token",
  "auth.name",
  "auth.value",
  "auth.client_id",
  "auth.client_secret",
];

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
      <div class={kit.field}>
        <label class={kit.label} for={`${id}-auth`}>
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
          <option value="oauth">OAuth</option>
        </select>
        {typeError && (
          <span id={`${id}-auth-error`} class={kit.fieldError} role="alert">
            {typeError}
          </span>
        )}
      </div>
      {draft.type === "bearer" && (
        <SecretField
          id={`${id}-token`}
          label="Bearer token"
          value={draft.token}
          onInput={(token) => set({ token })}
          error={errors["auth.token"]}
          hint="Sent as Authorization: Bearer …"
          testid={`${testid}-token`}
          grow
        />
      )}
      {draft.type === "header" && (
        <div class={kit.row}>
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
          <SecretField
            id={`${id}-header-value`}
            label="Header value"
            value={draft.headerValue}
            onInput={(headerValue) => set({ headerValue })}
            error={errors["auth.value"]}
            testid={`${testid}-header-value`}
            grow
          />
        </div>
      )}
      {draft.type === "oauth" && <OAuthClientFields id={id} draft={draft} set={set} errors={errors} testid={testid} />}
    </>
  );
}

type OAuthProps = Omit<AuthFieldsProps, "onChange"> & { set: (patch: Partial<AuthDraft>) => void };

/** A client registered by hand, for an authorization server without dynamic client registration. */
function OAuthClientFields({ id, draft, set, errors, testid }: OAuthProps) {
  const open = Boolean(errors["auth.client_id"] || errors["auth.client_secret"]);
  return (
    <details class={style.advanced} open={open || undefined} data-testid={`${testid}-oauth-advanced`}>
      <summary>Advanced</summary>
      <p class={kit.hint}>
        Only for a server that cannot register clients itself: the client you registered with its authorization server.
        The redirect URI to register is {location.origin}/api/mcp-servers/oauth/callback.
      </p>
      <div class={kit.row}>
        <TextField
          id={`${id}-client-id`}
          label="Client ID"
          value={draft.clientId ?? ""}
          onInput={(clientId) => set({ clientId })}
          error={errors["auth.client_id"]}
          testid={`${testid}-client-id`}
          grow
        />
        <SecretField
          id={`${id}-client-secret`}
          label="Client secret"
          value={draft.clientSecret ?? ""}
          onInput={(clientSecret) => set({ clientSecret })}
          error={errors["auth.client_secret"]}
          hint="Optional"
          testid={`${testid}-client-secret`}
          grow
        />
      </div>
    </details>
  );
}
