// Settings → Account → Sign-in providers (docs/protocol.md "Identity providers"): the identity providers
// linked to the account, each with what the provider said of it (an email or a name), when it was linked
// and last used, and Unlink (the last way into the account is refused by the server, in its words); and
// "Link <Name>" for each configured provider not linked yet, a navigation through the provider and back
// here (`?linked=<id>`, or `?error=<code>` said in words). Hidden when the server offers no provider and
// none is linked.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { oidcErrorWords } from "../../../../../protocol";
import { pageStyle } from "../../../components/page-frame";
import { type AccountIdentities, loadIdentities, oidcStartPath, unlinkIdentity } from "../../../lib/identity-providers";
import { explainShareError, shareDate } from "../../../lib/shares";
import linkStyle from "./linked-providers.module.css";
import style from "./style.module.css";

type Linked = AccountIdentities["linked"][number];
type Said = { text: string; problem: boolean };

/** What the callback that brought the browser here says (`?linked=` or `?error=`), read once. */
function saidByCallback(available: AccountIdentities["available"]): Said | null {
  const query = new URLSearchParams(location.search);
  const error = query.get("error");
  if (error) return { text: oidcErrorWords(error), problem: true };
  const linked = query.get("linked");
  const name = available.find((p) => p.id === linked)?.name ?? linked;
  return linked ? { text: `Linked ${name}: you can sign in with it now.`, problem: false } : null;
}

/** `onChanged`: a provider was unlinked (the account's ways in changed). */
export function LinkedProviders({ onChanged }: { onChanged: () => void }) {
  const [state, setState] = useState<AccountIdentities | { failed: string } | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  useEffect(() => {
    void loadIdentities().then((result) => {
      if (!result.ok) return setState({ failed: explainShareError(result.error, "load your sign-in providers") });
      setState(result.data);
      setSaid(saidByCallback(result.data.available));
      // Said once: a reload of the page does not say it again.
      if (location.search) history.replaceState(history.state, "", location.pathname + location.hash);
    });
  }, []);
  if (!state || ("available" in state && !state.available.length && !state.linked.length)) return null;
  if ("failed" in state)
    return (
      <Section>
        <p class={pageStyle.statusError} role="alert">
          {state.failed}
        </p>
      </Section>
    );
  const unlinked = state.available.filter((p) => !state.linked.some((l) => l.provider === p.id));
  const removed = (provider: string) =>
    setState({ ...state, linked: state.linked.filter((l) => l.provider !== provider) });
  return (
    <Section>
      {said && (
        <p
          class={said.problem ? pageStyle.statusError : pageStyle.muted}
          role={said.problem ? "alert" : "status"}
          data-testid="linked-providers-said"
        >
          {said.text}
        </p>
      )}
      {state.linked.length > 0 && (
        <ul class={pageStyle.list} data-testid="linked-provider-list">
          {state.linked.map((identity) => (
            <LinkedRow
              key={identity.provider}
              identity={identity}
              onUnlinked={() => {
                setSaid(null);
                removed(identity.provider);
                onChanged();
              }}
            />
          ))}
        </ul>
      )}
      {unlinked.length > 0 && (
        <div class={linkStyle.links}>
          {unlinked.map((provider) => (
            <a
              key={provider.id}
              class={linkStyle.link}
              href={oidcStartPath(provider.id, { link: true })}
              data-testid="provider-link"
              data-provider={provider.id}
            >
              {`Link ${provider.name}`}
            </a>
          ))}
        </div>
      )}
    </Section>
  );
}

function Section({ children }: { children: ComponentChildren }) {
  return (
    <section class={style.section} aria-labelledby="account-providers-title" data-testid="linked-providers">
      <h2 id="account-providers-title" class={style.heading}>
        Sign-in providers
      </h2>
      <p class={pageStyle.muted}>
        Sign in with an account you have elsewhere. A linked provider gets you in without your password, also when you
        have forgotten it.
      </p>
      {children}
    </section>
  );
}

function LinkedRow({ identity, onUnlinked }: { identity: Linked; onUnlinked: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const unlink = async () => {
    setBusy(true);
    setProblem(null);
    const result = await unlinkIdentity(identity.provider);
    setBusy(false);
    if (result.ok || result.error.status === 404) return onUnlinked();
    // 409: the last way in; the server's words say what to add first.
    setProblem(explainShareError(result.error, `unlink ${identity.name}`));
  };
  return (
    <li class={style.row} data-testid="linked-provider" data-provider={identity.provider}>
      <div class={style.about}>
        <span class={style.name}>
          {identity.name}
          {identity.label && <span class={style.meta}> · {identity.label}</span>}
        </span>
        <span class={style.meta}>
          Linked {shareDate(identity.created_at)} ·{" "}
          {identity.last_used_at ? `last used ${shareDate(identity.last_used_at)}` : "not used to sign in yet"}
        </span>
      </div>
      <button type="button" disabled={busy} onClick={() => void unlink()} data-testid="provider-unlink">
        {busy ? "Unlinking…" : "Unlink"}
      </button>
      {problem && (
        <p class={style.problem} role="alert" data-testid="provider-unlink-problem">
          {problem}
        </p>
      )}
    </li>
  );
}
