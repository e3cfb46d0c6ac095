// Sign up and log in (docs/protocol.md "Identity"). A problem is said once: at its field when the server
// (or the local check of sign-up's rules) names one of the form's fields, which then takes the focus;
// otherwise as the form's message (e.g. a wrong password, a used invite link, too many sign-ups). What
// was typed stays. Whether sign-up is offered at all follows the server's policy (signup-policy.ts).
import { useEffect, useRef, useState } from "preact/hooks";
import { CredentialsSchema, fieldErrors, type User } from "../../../../protocol";
import { requestJson } from "../../lib/api";
import { oidcErrorFromLocation } from "../../lib/identity-providers";
import { UserResponseSchema } from "../../lib/response-schemas";
import { nextFromLocation } from "../../lib/router";
import { Link } from "../../ui/link";
import { AccountDeletedNotice } from "./account-deleted";
import { ForgotPassword } from "./forgot-password";
import { OtherWays } from "./other-ways";
import { inviteFromLocation, refusalWords, type SignupOffer, signupOffer, useSignupPolicy } from "./signup-policy";
import style from "./style.module.css";

type Props = { mode: "login" | "signup"; onSignedIn: (user: User) => void };

const FIELDS = ["username", "password"] as const;

export function AuthForm({ mode, onSignedIn }: Props) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  // A sign-in with an identity provider that failed comes back with `?error=` (provider-buttons.tsx).
  const [message, setMessage] = useState<string | null>(oidcErrorFromLocation);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const signup = mode === "signup";
  const policy = useSignupPolicy();
  const invite = signup ? inviteFromLocation() : undefined;
  const offer = policy && signupOffer(policy, invite !== undefined);
  // Switching between log in and sign up keeps the way back (?next=) the visitor arrived with.
  const next = nextFromLocation();
  const keepNext = next ? `?next=${encodeURIComponent(next).replace(/%2F/gi, "/")}` : "";

  const submit = async (event: Event) => {
    event.preventDefault();
    if (signup) {
      const local = CredentialsSchema.safeParse({ username, password });
      if (!local.success) {
        setFields(fieldErrors(local.error));
        setMessage(null);
        return;
      }
    }
    setBusy(true);
    const body = { username, password, ...(invite ? { invite } : {}) };
    const result = await requestJson(`/api/auth/${mode}`, UserResponseSchema, "POST", body);
    setBusy(false);
    if (result.ok) return onSignedIn(result.data.user);
    // The server's message repeats its field errors ("That username is taken" / "already taken").
    const atField = FIELDS.some((name) => result.error.fields[name]);
    setMessage(atField ? null : refusalWords(result.error));
    setFields(result.error.fields);
  };

  // The first field with a problem takes the focus, so its error (its description) is read out.
  useEffect(() => {
    const first = FIELDS.find((name) => fields[name]);
    if (first) form.current?.querySelector<HTMLInputElement>(`input[name=${first}]`)?.focus();
  }, [fields]);

  const invalid = (name: (typeof FIELDS)[number]) =>
    fields[name] ? { "aria-invalid": true, "aria-describedby": `auth-${name}-error` } : {};

  const switchLine = (
    <p class={style.switch}>
      {signup ? "Already have an account? " : "New here? "}
      <Link href={`${signup ? "/login" : "/signup"}${keepNext}`}>{signup ? "Log in" : "Create an account"}</Link>
    </p>
  );

  // Sign-up not offered here (closed, or an invite needed): the words instead of the form.
  if (signup && !offer?.form)
    return (
      <main class={style.page}>
        <section class={style.card} aria-busy={!offer}>
          <h1 class={style.title}>Create your Oracle account</h1>
          {offer && (
            <p class={style.policy} role="status" data-testid="signup-policy">
              {offer.words}
            </p>
          )}
          {switchLine}
        </section>
      </main>
    );

  return (
    <main class={style.page}>
      <form ref={form} class={style.card} onSubmit={submit} noValidate data-testid="auth-form">
        <h1 class={style.title}>{signup ? "Create your Oracle account" : "Log in to Oracle"}</h1>
        <AccountDeletedNotice />
        {signup && offer?.words && (
          <p class={style.policy} data-testid="signup-policy">
            {offer.words}
          </p>
        )}
        {message && (
          <p class={style.error} role="alert" data-testid="auth-error">
            {message}
          </p>
        )}
        <label class={style.field}>
          Username
          <input
            name="username"
            autoComplete="username"
            value={username}
            onInput={(e) => setUsername(e.currentTarget.value)}
            {...invalid("username")}
            data-testid="auth-username"
          />
          {fields.username && (
            <span id="auth-username-error" class={style.fieldError} data-testid="field-error-username">
              {fields.username}
            </span>
          )}
        </label>
        <label class={style.field}>
          Password
          <input
            name="password"
            type="password"
            autoComplete={signup ? "new-password" : "current-password"}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            {...invalid("password")}
            data-testid="auth-password"
          />
          {fields.password && (
            <span id="auth-password-error" class={style.fieldError} data-testid="field-error-password">
              {fields.password}
            </span>
          )}
        </label>
        <button type="submit" class={style.submit} disabled={busy} data-testid="auth-submit">
          {signup ? "Sign up" : "Log in"}
        </button>
        <OtherWays mode={mode} username={username} invite={invite} onSignedIn={onSignedIn} />
        {!signup && <ForgotPassword />}
        {signup || !offer || offer.form ? switchLine : <NoSignup offer={offer} />}
      </form>
    </main>
  );
}

/** Under the login form when this server takes no sign-up from here: why, instead of the link. */
function NoSignup({ offer }: { offer: SignupOffer }) {
  return (
    <p class={style.switch} data-testid="signup-policy">
      {offer.words}
    </p>
  );
}
