// Settings → Account → Where you're signed in: each session's device, place, address, how it signed in
// and when it was last used; Sign out on any but this one, and "Sign out everywhere else". A session
// signed out here ends at once, its open tabs' sockets included (docs/protocol.md "Sessions and password").
import { useState } from "preact/hooks";
import { ListView, pageStyle } from "../../../components/page-frame";
import { type AccountSession, explainAccountError, useSessions } from "../../../lib/account";
import { shareDate } from "../../../lib/shares";
import style from "./style.module.css";

/** How a session signed in, in words. */
function methodWords(method: string | null): string {
  if (!method) return "";
  if (method === "password") return "with a password";
  if (method === "passkey") return "with a passkey";
  if (method === "signup") return "at sign-up";
  if (method === "reset") return "with a reset link";
  if (method.startsWith("oidc:")) return `with ${method.slice(5)}`;
  return "";
}

export function Sessions() {
  const { list, signOut, signOutOthers } = useSessions();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const others = list.status === "ready" ? list.items.filter((s) => !s.current).length : 0;
  const endOthers = async () => {
    setProblem(null);
    const result = await signOutOthers();
    if (!result.ok) return setProblem(explainAccountError(result.error, "sign out the other sessions"));
    const n = result.data.signed_out;
    setDone(n === 1 ? "Signed out 1 other session." : `Signed out ${n} other sessions.`);
  };
  return (
    <section class={style.section} aria-labelledby="account-sessions-title" data-testid="account-sessions">
      <h2 id="account-sessions-title" class={style.heading}>
        Where you're signed in
      </h2>
      <p class={pageStyle.muted}>Signing a session out ends it at once, in every tab open there.</p>
      <ListView list={list} empty="No sessions." emptyTestId="sessions-empty" listTestId="session-list">
        {(session) => <SessionRow key={session.id} session={session} signOut={signOut} />}
      </ListView>
      {others > 0 && (
        <button
          type="button"
          class={style.spaced}
          onClick={() => void endOthers()}
          data-testid="sessions-sign-out-others"
        >
          Sign out everywhere else
        </button>
      )}
      {done && (
        <p class={pageStyle.muted} role="status">
          {done}
        </p>
      )}
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

function SessionRow({
  session,
  signOut,
}: {
  session: AccountSession;
  signOut: ReturnType<typeof useSessions>["signOut"];
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const where = [session.place, session.address].filter(Boolean).join(" · ");
  const end = async () => {
    setBusy(true);
    const result = await signOut(session.id);
    setBusy(false);
    if (!result.ok && result.error.status !== 404) setProblem(explainAccountError(result.error, "sign it out"));
  };
  return (
    <li class={style.row} data-testid="session" data-current={session.current ? "true" : undefined}>
      <div class={style.about}>
        <span class={style.name}>
          {session.device}
          {session.current && <span class={style.badge}>This browser</span>}
        </span>
        <span class={style.meta}>
          {where && `${where} · `}signed in {shareDate(session.created_at)} {methodWords(session.method)}
        </span>
        <span class={style.meta}>
          {session.current ? "In use now" : `Last used ${shareDate(session.last_used_at ?? session.created_at)}`}
        </span>
      </div>
      {!session.current && (
        <button type="button" disabled={busy} onClick={() => void end()} data-testid="session-sign-out">
          {busy ? "Signing out…" : "Sign out"}
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
