// Settings → Account: who is signed in and Log out, and the API tokens scripts use (docs/protocol.md
// "Identity"): each token's name, when it was made and last used, and Delete (after a confirm, since a
// script using it stops working); a new token is shown once, with Copy, and never again. The place
// where the rest of an account (password, passkeys, sessions) will go.
import { useState } from "preact/hooks";
import type { User } from "../../../../../protocol";
import { ListView, pageStyle } from "../../../components/page-frame";
import { useAccount } from "../../../lib/account";
import { type CreatedToken, createToken, deleteToken, type Token, useApiTokens } from "../../../lib/api-tokens";
import { explainShareError, shareDate } from "../../../lib/shares";
import { COPY_LABELS, useCopy } from "../../../lib/use-copy";
import { ConfirmRemove } from "./confirm-remove";
import { DeleteAccount } from "./delete-account";
import { LinkedProviders } from "./linked-providers";
import { Passkeys } from "./passkeys";
import { Password } from "./password";
import { Sessions } from "./sessions";
import style from "./style.module.css";
import { YourData } from "./your-data";

export type AccountProps = { user: User; onLogOut: () => void };

export function Account({ user, onLogOut }: AccountProps) {
  // The ways into the account, read once for the tab and again when one is added or removed here.
  const { account, reload } = useAccount();
  const ways = account?.ok ? account.data.ways : undefined;
  return (
    <div data-testid="account">
      <section class={style.section} aria-labelledby="account-user-title">
        <h2 id="account-user-title" class={style.heading}>
          Signed in
        </h2>
        <div class={style.user}>
          <p class={style.who}>
            Signed in as <strong data-testid="account-username">{user.username}</strong>
          </p>
          <button type="button" onClick={onLogOut} data-testid="account-logout">
            Log out
          </button>
        </div>
        <p class={pageStyle.muted}>Log out ends this browser's session; your API tokens keep working.</p>
      </section>
      <Password ways={ways} onChanged={reload} />
      <Passkeys onChanged={reload} />
      <LinkedProviders onChanged={reload} />
      <Sessions />
      <ApiTokens />
      <YourData />
      <DeleteAccount username={user.username} ways={ways} />
    </div>
  );
}

function ApiTokens() {
  const { list, add, remove } = useApiTokens();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <section class={style.section} aria-labelledby="account-tokens-title" data-testid="api-tokens">
      <h2 id="account-tokens-title" class={style.heading}>
        API tokens
      </h2>
      <p class={pageStyle.muted}>
        For scripts and other programs that use Oracle's API: they send the token as{" "}
        <code>Authorization: Bearer …</code>. A token can chat and read and write your conversations, notes and tasks,
        but cannot change tool approvals, MCP servers, model keys, shared links or tokens. It works until you delete it.
      </p>
      <NewToken
        onCreated={(token) => {
          add(token);
          setCreated(token);
        }}
      />
      {created && <ShownOnce token={created} onDone={() => setCreated(null)} />}
      <ListView list={list} empty="No API tokens." emptyTestId="api-tokens-empty" listTestId="api-token-list">
        {(token) => <TokenRow key={token.id} token={token} onDeleted={() => remove(token.id)} />}
      </ListView>
    </section>
  );
}

function NewToken({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setProblem("Give the token a name, such as the script that will use it.");
    setBusy(true);
    setProblem(null);
    const result = await createToken(name.trim());
    setBusy(false);
    if (!result.ok) return setProblem(explainShareError(result.error, "create the token"));
    setName("");
    onCreated(result.data);
  };
  return (
    <form class={style.form} onSubmit={(event) => void submit(event)} data-testid="api-token-form">
      <label class={style.field}>
        <span>Name</span>
        <input
          value={name}
          maxLength={64}
          placeholder="e.g. backup script"
          onInput={(event) => setName(event.currentTarget.value)}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "api-token-problem" : undefined}
          data-testid="api-token-name"
        />
      </label>
      <button type="submit" class={pageStyle.primary} disabled={busy} data-testid="api-token-create">
        {busy ? "Creating…" : "Create token"}
      </button>
      {problem && (
        <p id="api-token-problem" class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The new token, this once: to copy now. */
function ShownOnce({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const { state, copy } = useCopy(token.token);
  return (
    <div class={style.created} role="status" data-testid="api-token-created">
      <p class={style.createdText}>Your new token “{token.name}”. Copy it now: it is not shown again.</p>
      <div class={style.secretRow}>
        <input
          class={style.secret}
          readOnly
          value={token.token}
          aria-label={`The token “${token.name}”`}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="api-token-secret"
        />
        <button type="button" onClick={copy} data-testid="api-token-copy">
          {COPY_LABELS[state]}
        </button>
        <button type="button" onClick={onDone} data-testid="api-token-done">
          Done
        </button>
      </div>
    </div>
  );
}

function TokenRow({ token, onDeleted }: { token: Token; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    const result = await deleteToken(token.id);
    setBusy(false);
    if (result.ok || result.error.status === 404) return onDeleted();
    setConfirming(false);
    setProblem(explainShareError(result.error, "delete the token"));
  };
  return (
    <li class={style.row} data-testid="api-token" data-name={token.name}>
      <div class={style.about}>
        <span class={style.name}>{token.name}</span>
        <span class={style.meta}>
          Made {shareDate(token.created_at)} ·{" "}
          {token.last_used_at ? `last used ${shareDate(token.last_used_at)}` : "never used"}
        </span>
      </div>
      {confirming ? (
        <ConfirmRemove
          question="Delete it? Scripts using it stop working at once."
          action="Delete"
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void remove()}
          testid="api-token-delete-confirm"
        />
      ) : (
        <button type="button" onClick={() => setConfirming(true)} data-testid="api-token-delete">
          Delete
        </button>
      )}
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
