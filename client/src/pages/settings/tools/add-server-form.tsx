// "Add a server": name, URL and authentication, checked with the protocol's own schema before it is
// sent. A refusal shows by its fields (the 400's `fields`) or as one line (a 409: the name is taken, or
// the user has the most servers allowed); what the user typed stays. Once added, the list tests it.
import { useState } from "preact/hooks";
import { fieldErrors, type McpServer, type McpServerCreate, McpServerCreateSchema } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import type { ApiResult } from "../../../lib/api";
import { AUTH_FIELDS, type AuthDraft, AuthFields, authInput, EMPTY_AUTH } from "./auth-fields";
import { splitErrors, TextField } from "./fields";
import style from "./style.module.css";

type Props = { onCreate: (input: McpServerCreate) => Promise<ApiResult<McpServer>> };

const SHOWN = ["name", "url", ...AUTH_FIELDS];

export function AddServerForm({ onCreate }: Props) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [auth, setAuth] = useState<AuthDraft>(EMPTY_AUTH);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (saving) return;
    setAdded(null);
    const body = { name: name.trim(), url: url.trim(), auth: authInput(auth), enabled: true };
    const check = McpServerCreateSchema.safeParse(body);
    if (!check.success) {
      const split = splitErrors({ message: "Check the fields above", fields: fieldErrors(check.error) }, SHOWN);
      setErrors(split.fields);
      setFormError(split.form);
      return;
    }
    setSaving(true);
    const result = await onCreate(check.data);
    setSaving(false);
    if (!result.ok) {
      const split = splitErrors(result.error, SHOWN);
      setErrors(split.fields);
      // A conflict (the name is taken, or too many servers) says so in a sentence, whatever it marks.
      setFormError(result.error.status === 409 ? result.error.message : split.form);
      return;
    }
    setErrors({});
    setFormError(null);
    setName("");
    setUrl("");
    setAuth(EMPTY_AUTH);
    setAdded(result.data.name);
  };

  return (
    <form
      class={`${page.editor} ${style.form}`}
      noValidate
      aria-labelledby="mcp-add-title"
      onSubmit={(event) => void submit(event)}
      data-testid="mcp-add-form"
    >
      <h2 id="mcp-add-title" class={style.formTitle}>
        Add a server
      </h2>
      <div class={style.row}>
        <TextField
          id="mcp-add-name"
          label="Name"
          value={name}
          onInput={setName}
          error={errors.name}
          hint="a–z, 0–9 and -; it prefixes the tool names (name__tool)"
          placeholder="github"
          testid="mcp-add-name"
          grow="short"
        />
        <TextField
          id="mcp-add-url"
          label="URL"
          type="url"
          value={url}
          onInput={setUrl}
          error={errors.url}
          placeholder="https://…"
          testid="mcp-add-url"
          grow
        />
      </div>
      <AuthFields id="mcp-add" draft={auth} onChange={setAuth} errors={errors} testid="mcp-add" />
      <div class={style.actions}>
        <button type="submit" class={page.primary} disabled={saving} data-testid="mcp-add-submit">
          {saving ? "Adding…" : "Add server"}
        </button>
        {formError && (
          <span class={style.fieldError} role="alert" data-testid="mcp-add-error">
            {formError}
          </span>
        )}
        {added && (
          <span class={style.ok} role="status" data-testid="mcp-added">
            Added {added}.
          </span>
        )}
      </div>
    </form>
  );
}
