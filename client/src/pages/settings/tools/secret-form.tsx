// "Replace secret": a small inline form under a server that sends a new `auth` (the stored secret is
// never shown, so it can only be replaced). Its errors show by its inputs; what was typed stays.
import { useEffect, useRef, useState } from "preact/hooks";
import type { McpAuthInput, McpServer } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import { FormActions, formStyle as kit, SubmitButton, useFormSubmit } from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import { AUTH_FIELDS, type AuthDraft, AuthFields, authInput } from "./auth-fields";

type Props = {
  server: McpServer;
  onSave: (auth: McpAuthInput) => Promise<ApiResult<McpServer>>;
  onClose: () => void;
};

export function SecretForm({ server, onSave, onClose }: Props) {
  const [draft, setDraft] = useState<AuthDraft>({
    type: server.auth.type,
    token: "",
    headerName: server.auth.type === "header" ? server.auth.name : "",
    headerValue: "",
  });
  const submitting = useFormSubmit(AUTH_FIELDS);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("select")?.focus();
  }, []);

  const submit = async () => {
    const result = await submitting.send(() => onSave(authInput(draft)));
    if (result.ok) return onClose();
    submitting.refuse(result.error);
  };

  const id = `mcp-secret-${server.id}`;
  return (
    <form
      ref={form}
      class={`${page.editor} ${kit.form}`}
      noValidate
      aria-label={`New authentication for ${server.name}`}
      onSubmit={submitting.submit(submit)}
      data-testid="mcp-secret-form"
    >
      <AuthFields id={id} draft={draft} onChange={setDraft} errors={submitting.errors} testid="mcp-secret" />
      <FormActions error={submitting.formError} errorTestid="mcp-secret-error">
        <button type="button" onClick={onClose} data-testid="mcp-secret-cancel">
          Cancel
        </button>
        <SubmitButton saving={submitting.saving} label="Save secret" savingLabel="Saving…" testid="mcp-secret-save" />
      </FormActions>
    </form>
  );
}
