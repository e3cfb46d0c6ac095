// Settings → Account → Delete account (docs/protocol.md "Deleting an account"): what is erased, then, once
// asked for, the username typed again and the password (or a passkey), and DELETE /api/account. Done, the
// app forgets what this tab kept of the account and signs out to the sign-in page, which says the
// account was deleted (pages/auth/account-deleted.tsx).
import { useState } from "preact/hooks";
import type { Confirm, SignInWays } from "../../../../../protocol";
import { pageStyle } from "../../../components/page-frame";
import { markAccountDeleted } from "../../../lib/account-deleted";
import { type ApiError, requestEmpty, signalUnauthorized } from "../../../lib/api";
import { forgetOutboxes } from "../../../lib/outbox";
import { confirmWithPasskey } from "../../../lib/passkeys";
import { navigate } from "../../../lib/router";
import { resetModels } from "../../../lib/use-models";
import style from "./delete-account.module.css";

export function DeleteAccount({ username, ways }: { username: string; ways: SignInWays | undefined }) {
  const [asked, setAsked] = useState(false);
  return (
    <section class={style.section} aria-labelledby="account-delete-title" data-testid="delete-account">
      <h2 id="account-delete-title" class={style.heading}>
        Delete account
      </h2>
      <p class={pageStyle.muted}>
        Deleting your account erases everything in it, for good: your conversations (with their subagents' work), notes,
        tasks, library, schedules (nothing runs again), share links (they stop working at once), MCP servers (their
        sign-ins are revoked at the provider), model providers and their keys, API tokens and every session. It cannot
        be undone. To keep a copy, download your data first (Your data, above).
      </p>
      {asked ? (
        <DeleteForm username={username} ways={ways} onCancel={() => setAsked(false)} />
      ) : (
        <button type="button" class={style.danger} onClick={() => setAsked(true)} data-testid="delete-account-start">
          Delete account…
        </button>
      )}
    </section>
  );
}

type Problems = { username?: string; password?: string; form?: string };

function DeleteForm({
  username,
  ways,
  onCancel,
}: {
  username: string;
  ways: SignInWays | undefined;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Problems>({});
  // An account without a password confirms with a passkey; one with both may use either.
  const hasPassword = ways?.password ?? true;
  const hasPasskey = (ways?.passkeys ?? 0) > 0;

  const erase = async (confirm: Confirm) => {
    setBusy(true);
    setProblems({});
    const result = await requestEmpty("/api/account", "DELETE", { username: typed, confirm });
    if (result.ok) return signOutDeleted();
    setBusy(false);
    setProblems(problemsOf(result.error));
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!hasPassword) return void withPasskey();
    if (typed !== username) return setProblems({ username: `Type your username, ${username}, exactly.` });
    if (!password) return setProblems({ password: "Enter your password." });
    void erase({ password });
  };
  const withPasskey = async () => {
    if (typed !== username) return setProblems({ username: `Type your username, ${username}, exactly.` });
    const confirm = await confirmWithPasskey();
    if (!("error" in confirm)) return void erase(confirm);
    if (!confirm.cancelled) setProblems({ form: confirm.error });
  };
  const described = (field: "username" | "password") =>
    problems[field] ? { "aria-invalid": true, "aria-describedby": `delete-account-${field}-problem` } : {};

  return (
    <form class={style.form} onSubmit={submit} noValidate data-testid="delete-account-form">
      <label class={style.field}>
        <span>
          Type your username, <strong>{username}</strong>, to confirm
        </span>
        <input
          name="confirm-username"
          autoComplete="off"
          autoCapitalize="none"
          spellcheck={false}
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
          {...described("username")}
          data-testid="delete-account-username"
        />
        {problems.username && <Problem id="delete-account-username-problem" text={problems.username} />}
      </label>
      {hasPassword && (
        <label class={style.field}>
          <span>Your password</span>
          <input
            name="current-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
            {...described("password")}
            data-testid="delete-account-password"
          />
          {problems.password && <Problem id="delete-account-password-problem" text={problems.password} />}
        </label>
      )}
      <div class={style.actions}>
        <button type="submit" class={style.danger} disabled={busy} data-testid="delete-account-confirm">
          {busy ? "Deleting…" : hasPassword ? "Delete my account for good" : "Confirm with a passkey and delete"}
        </button>
        {hasPassword && hasPasskey && (
          <button type="button" disabled={busy} onClick={() => void withPasskey()} data-testid="delete-account-passkey">
            Confirm with a passkey instead
          </button>
        )}
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      {problems.form && (
        <p class={style.problem} role="alert" data-testid="delete-account-problem">
          {problems.form}
        </p>
      )}
    </form>
  );
}

function Problem({ id, text }: { id: string; text: string }) {
  return (
    <span id={id} class={style.problem} role="alert">
      {text}
    </span>
  );
}

/** The server's refusal, by the field it is about. */
function problemsOf(error: ApiError): Problems {
  if (error.fields.username) return { username: `Type your username exactly as it is.` };
  if (error.code === "confirmation_failed") return { password: "That is not your password." };
  if (error.code === "rate_limited") return { password: error.message };
  if (error.code === "network" || error.status >= 500)
    return {
      form: `Deleting did not finish (${error.message}). Try again: what is erased already stays erased, and trying again erases the rest.`,
    };
  return { form: error.message };
}

/** The account is gone: nothing of it stays in this tab, and the sign-in page says why. */
function signOutDeleted(): void {
  forgetOutboxes();
  resetModels();
  markAccountDeleted();
  // Signed out and at /login in one render, so nothing routes back to the page just left (?next=).
  signalUnauthorized();
  navigate("/login", { replace: true });
}
