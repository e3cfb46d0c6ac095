// /reset?token=…: an admin's single-use link for a forgotten password (docs/protocol.md "Sessions and
// password"). The new password is typed twice; using the link signs the account out everywhere and in
// here. A used, replaced or expired link says so and what to do.
import { useState } from "preact/hooks";
import type { User } from "../../../../protocol";
import { NewPasswordFields, newPasswordProblem } from "../../components/new-password";
import { requestJson } from "../../lib/api";
import { UserResponseSchema } from "../../lib/response-schemas";
import { Link } from "../../ui/link";
import style from "./style.module.css";

export function ResetPage({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const wrong = newPasswordProblem(password, again);
    if (wrong) return setProblem(wrong);
    setBusy(true);
    const result = await requestJson("/api/auth/reset", UserResponseSchema, "POST", { token, new_password: password });
    setBusy(false);
    if (result.ok) return onSignedIn(result.data.user);
    setProblem(result.error.message);
  };

  if (!token)
    return (
      <main class={style.page}>
        <section class={style.card}>
          <h1 class={style.title}>Set a new password</h1>
          <p class={style.note}>
            This page needs the whole link an administrator sent you. Copy all of it into the address bar.
          </p>
          <p class={style.switch}>
            <Link href="/login">Log in</Link>
          </p>
        </section>
      </main>
    );

  return (
    <main class={style.page}>
      <form class={style.card} onSubmit={(e) => void submit(e)} noValidate data-testid="reset-form">
        <h1 class={style.title}>Set a new password</h1>
        <p class={style.note}>Choose a new password. Every device signed in to your account is signed out.</p>
        {problem && (
          <p class={style.error} role="alert" data-testid="reset-error">
            {problem}
          </p>
        )}
        <NewPasswordFields
          value={password}
          again={again}
          onValue={setPassword}
          onAgain={setAgain}
          fieldClass={style.field}
          testid="reset-password"
        />
        <button type="submit" class={style.submit} disabled={busy} data-testid="reset-submit">
          {busy ? "Saving…" : "Set password and sign in"}
        </button>
        <p class={style.switch}>
          <Link href="/login">Back to log in</Link>
        </p>
      </form>
    </main>
  );
}
