// "Add a server": name, URL and authentication, checked with the protocol's own schema before it is
// sent. The name is saved as a–z, 0–9 and - ("My Docs" as my-docs, said under the field as it is typed).
// A refusal shows by its fields (the 400's `fields`) or as one line (a 409: the name is taken, or the
// user has the most servers allowed); what the user typed stays. Once added, it is tested: switched on
// when it works, else left off and the line says why (use-mcp-servers.ts).
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
import type { AddOutcome } from "../../../lib/use-mcp-servers";
import { AUTH_FIELDS, type AuthDraft, AuthFields, authInput, EMPTY_AUTH } from "./auth-fields";
import { nameToSave } from "./server-name";

type Props = {
  onCreate: (input: McpServerCreate, tested: (outcome: AddOutcome) => void) => Promise<ApiResult<McpServer>>;
};

const SHOWN = ["name", "url", ...AUTH_FIELDS];
const NAME_RULE = "a–z, 0–9 and -; it prefixes the tool names (name__tool)";

/** What the form's line says of the server it added: while its first test runs, and how it went. */
function addedWords(name: string, outcome: AddOutcome | null): { text: string; ok: boolean } {
  if (!outcome) return { text: `Added ${name}; testing the connection…`, ok: true };
  if (outcome.on) return { text: `Added ${name}: the connection works, and its tools are on.`, ok: true };
  const { auth } = outcome.server;
  if (auth.type === "oauth" && auth.status !== "connected")
    return {
      text: `Added ${name}, switched off until you connect it (Connect, in its row); then it is switched on.`,
      ok: false,
    };
  const why = outcome.why.replace(/\.$/, "");
  return {
    text: `Added ${name}, switched off: the connection test failed${why ? ` (${why})` : ""}. It is switched on once Test connection works.`,
    ok: false,
  };
}

export function AddServerForm({ onCreate }: Props) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [auth, setAuth] = useState<AuthDraft>(EMPTY_AUTH);
  const [added, setAdded] = useState<McpServer | null>(null);
  const [outcome, setOutcome] = useState<AddOutcome | null>(null);
  const form = useFormSubmit(SHOWN);
  const saved = nameToSave(name);

  const submit = async () => {
    setAdded(null);
    const body = { name: saved, url: url.trim(), auth: authInput(auth), enabled: true };
    const created = await form.create(McpServerCreateSchema.safeParse(body), (input) => onCreate(input, setOutcome));
    if (!created) return;
    setName("");
    setUrl("");
    setAuth(EMPTY_AUTH);
    setAdded(created);
  };
  const words = added && addedWords(added.name, outcome?.server.id === added.id ? outcome : null);

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
          hint={saved && saved !== name.trim() ? `Will be saved as ${saved}` : NAME_RULE}
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
          words && (
            <span class={words.ok ? kit.ok : kit.fieldError} role="status" data-testid="mcp-added">
              {words.text}
            </span>
          )
        }
      >
        <SubmitButton saving={form.saving} label="Add server" savingLabel="Adding…" testid="mcp-add-submit" />
      </FormActions>
    </form>
  );
}
