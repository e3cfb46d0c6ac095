// Settings → Account → Password: a new password, typed twice, confirmed by the current one (an account
// without a password sets its first one, confirmed with a passkey). Every other session and its sockets
// end at once; this one stays (docs/protocol.md "Sessions and password").
import { useState } from "preact/hooks";
import type { Confirm, SignInWays } from "../../../../../protocol";
import { NewPasswordFields, newPasswordProblem } from "../../../components/new-password";
import { pageStyle } from "../../../components/page-frame";
import { changePassword, explainAccountError } from "../../../lib/account";
import { confirmWithPasskey } from "../../../lib/passkeys";
import style from "./style.module.css";

/** `ways`: the account's ways in (undefined while they load); `onChanged`: after a first password is set. */
export function Password({ ways, onChanged }: { ways: SignInWays | undefined; onChanged: () => void }) {
  const hasPassword = ways?.password ?? true;
  const hasPasskey = (ways?.passkeys ?? 0) > 0;
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  /** With the current password, or (`withPasskey`, or an account without one) a passkey. */
  const save = async (withPasskey: boolean) => {
    setDone(null);
    const wrong = newPasswordProblem(next, again);
    if (wrong) return setProblem(wrong);
    const byPassword = hasPassword && !withPasskey;
    if (byPassword && !current) return setProblem("Type your current password to confirm it is you");
    setBusy(true);
    setProblem(null);
    let confirm: Confirm;
    if (byPassword) confirm = { password: current };
    else {
      const passkey = await confirmWithPasskey();
      if ("error" in passkey) {
        setBusy(false);
        return setProblem(passkey.error);
      }
      confirm = passkey;
    }
    const result = await changePassword(next, confirm);
    setBusy(false);
    if (!result.ok) return setProblem(explainAccountError(result.error, "change the password"));
    setCurrent("");
    setNext("");
    setAgain("");
    const n = result.data.signed_out;
    setDone(
      `Password ${hasPassword ? "changed" : "set"}.${n ? ` ${n === 1 ? "1 other session was" : `${n} other sessions were`} signed out.` : ""}`,
    );
    if (!hasPassword) onChanged();
  };

  return (
    <section class={style.section} aria-labelledby="account-password-title" data-testid="account-password">
      <h2 id="account-password-title" class={style.heading}>
        Password
      </h2>
      <p class={pageStyle.muted}>
        {hasPassword
          ? "A new password signs you out everywhere else; this browser stays signed in."
          : "Your account has no password: you sign in with a passkey or an identity provider. You can add one, confirmed with a passkey."}
      </p>
      <form
        class={style.stack}
        onSubmit={(e) => {
          e.preventDefault();
          void save(false);
        }}
        noValidate
        data-testid="password-form"
      >
        {hasPassword && (
          <label class={style.field}>
            <span>Current password</span>
            <input
              type="password"
              autoComplete="current-password"
              value={current}
              onInput={(e) => setCurrent(e.currentTarget.value)}
              data-testid="password-current"
            />
          </label>
        )}
        <NewPasswordFields
          value={next}
          again={again}
          onValue={setNext}
          onAgain={setAgain}
          fieldClass={style.field}
          testid="password-new"
        />
        <button type="submit" class={pageStyle.primary} disabled={busy} data-testid="password-submit">
          {busy ? "Saving…" : hasPassword ? "Change password" : "Set password with a passkey"}
        </button>
        {hasPassword && hasPasskey && (
          <button type="button" disabled={busy} onClick={() => void save(true)} data-testid="password-with-passkey">
            Confirm with a passkey instead
          </button>
        )}
        {problem && (
          <p class={style.problem} role="alert" data-testid="password-problem">
            {problem}
          </p>
        )}
        {done && (
          <p class={pageStyle.muted} role="status" data-testid="password-done">
            {done}
          </p>
        )}
      </form>
    </section>
  );
}
