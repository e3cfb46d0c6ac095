// "Replace secret": a small inline form under a server that sends a new `auth` (the stored secret is
// never shown, so it can only be replaced). Its errors show by its inputs; what was typed stays.
import { useEffect, useRef, useState } from "preact/hooks";
import type { McpAuthInput, McpServer } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import type { ApiResult } from "../../../lib/api";
import { AUTH_FIELDS, type AuthDraft, AuthFields, authInput } from "./auth-fields";
import { splitErrors } from "./fields";
import style from "./style.module.css";

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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("select")?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    const result = await onSave(authInput(draft));
    setSaving(false);
    if (result.ok) return onClose();
    const split = splitErrors(result.error, AUTH_FIELDS);
    setErrors(split.fields);
    setFormError(split.form);
  };

  const id = `mcp-secret-${server.id}`;
  return (
    <form
      ref={form}
      class={`${page.editor} ${style.form}`}
      noValidate
      aria-label={`New authentication for ${server.name}`}
      onSubmit={(event) => void submit(event)}
      data-testid="mcp-secret-form"
    >
      <AuthFields id={id} draft={draft} onChange={setDraft} errors={errors} testid="mcp-secret" />
      <div class={style.actions}>
        <button type="button" onClick={onClose} data-testid="mcp-secret-cancel">
          Cancel
        </button>
        <button type="submit" class={page.primary} disabled={saving} data-testid="mcp-secret-save">
          {saving ? "Saving…" : "Save secret"}
        </button>
        {formError && (
          <span class={style.fieldError} role="alert" data-testid="mcp-secret-error">
            {formError}
          </span>
        )}
      </div>
    </form>
  );
}
