// "Add a server": name, URL and authentication, checked with the protocol's own schema before it is
// sent. A refusal shows by its fields (the 400's `fields`) or as one line (a 409: the name is taken, or
// the user has the most servers allowed); what the user typed stays. Once added, the list tests it.
import { useState } from "preact/hooks";
import { type McpServer, type McpServerCreate, McpServerCreateSchema } from "../../../../../protocol";
import { pageStyle as page } from "../../../components/page-frame";
import {
  FormActions,
  formStyle as kit,
  SubmitButton,
  TextField,
  useFormSubmit,
} from "../../../components/settings-form";
import type { ApiResult } from "../../../lib/api";
import { AUTH_FIELDS, type AuthDraft, AuthFields, authInput, EMPTY_AUTH } from "./auth-fields";

type Props = { onCreate: (input: McpServerCreate) => Promise<ApiResult<McpServer>> };

const SHOWN = ["name", "url", ...AUTH_FIELDS];

export function AddServerForm({ onCreate }: Props) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [auth, setAuth] = useState<AuthDraft>(EMPTY_AUTH);
  const [added, setAdded] = useState<string | null>(null);
  const form = useFormSubmit(SHOWN);

  const submit = async () => {
    setAdded(null);
    const body = { name: name.trim(), url: url.trim(), auth: authInput(auth), enabled: true };
    const created = await form.create(McpServerCreateSchema.safeParse(body), onCreate);
    if (!created) return;
    setName("");
    setUrl("");
    setAuth(EMPTY_AUTH);
    setAdded(created.name);
  };

  const { errors } = form;
  return (
    <form
      class={`${page.editor} ${kit.form}`}
      noValidate
      aria-labelledby="mcp-add-title"
      onSubmit={form.submit(submit)}
      data-testid="mcp-add-form"
    >
      <h2 id="mcp-add-title" class={kit.formTitle}>
        Add a server
      </h2>
      <div class={kit.row}>
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
      <FormActions
        error={form.formError}
        errorTestid="mcp-add-error"
        status={
          added && (
            <span class={kit.ok} role="status" data-testid="mcp-added">
              Added {added}.
            </span>
          )
        }
      >
        <SubmitButton saving={form.saving} label="Add server" savingLabel="Adding…" testid="mcp-add-submit" />
      </FormActions>
    </form>
  );
}
