// The page a share link opens, /s/<id>, with or without an account: the snapshot's title, "Shared
// conversation · snapshot of <date>" and its messages drawn by the chat's own message list, from the
// top (a reader starts at the beginning, not at the end as in a chat), read-only
// (no socket, no composer, and no `branching`, so no Edit, Regenerate, Retry or ‹ n/m ›). Search engines are asked not to index it (a robots meta while it is
// shown; the API answers with X-Robots-Tag too). An unknown or revoked link says so in words.
// "Continue in your account" copies the snapshot into a new conversation of the reader's (POST
// …/fork) and opens it; signed out, it goes to sign in first and forks on the way back (remembered in
// this tab only, so a crafted link cannot make a signed-in reader fork by itself). The messages' files
// come through the link's own address when its owner included them, else only their names show
// (lib/file-links.ts): the owner's file addresses are never used here.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Message } from "../../../../protocol";
import { MessageList } from "../../components/message-list";
import { type ConversationState, INITIAL_STATE } from "../../lib/conversation-state";
import { FileLinksContext, sharedFileLinks } from "../../lib/file-links";
import { loginPathFor, navigate } from "../../lib/router";
import { explainShareError, forkShared, loadShared, type SharedConversation, shareDate } from "../../lib/shares";
import type { Session } from "../../lib/use-session";
import style from "./style.module.css";

const FORK_AFTER_SIGN_IN = "oracle.fork-after-sign-in";

type Loaded =
  | { status: "loading" }
  | { status: "not_found" }
  | { status: "failed"; message: string }
  | { status: "ready"; shared: SharedConversation };

/** The snapshot as the message list reads a conversation: every message in, history complete. */
function snapshotState(messages: Message[]): ConversationState {
  const last = messages.reduce((max, m) => Math.max(max, m.seq), 0);
  return { ...INITIAL_STATE, messages: new Map(messages.map((m) => [m.seq, m])), helloSeq: last };
}

/** `<meta name="robots" content="noindex">` in the head while the page is shown. */
function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex";
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

export function SharedPage({ id, session }: { id: string; session: Session["status"] }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [forking, setForking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useNoIndex();

  useEffect(() => {
    let current = true;
    setLoaded({ status: "loading" });
    void loadShared(id).then((result) => {
      if (!current) return;
      if (result.ok) setLoaded({ status: "ready", shared: result.data });
      else if (result.error.status === 404) setLoaded({ status: "not_found" });
      else setLoaded({ status: "failed", message: explainShareError(result.error, "open the shared conversation") });
    });
    return () => {
      current = false;
    };
  }, [id]);

  const title = loaded.status === "ready" ? loaded.shared.share.title || "Untitled conversation" : null;
  useEffect(() => {
    document.title =
      loaded.status === "not_found" ? "Link not found · Oracle" : `${title ?? "Shared conversation"} · Oracle`;
  }, [loaded.status, title]);

  const fork = async () => {
    if (session !== "signed_in") {
      sessionStorage.setItem(FORK_AFTER_SIGN_IN, id);
      navigate(loginPathFor(location.pathname));
      return;
    }
    setForking(true);
    setProblem(null);
    const result = await forkShared(id);
    setForking(false);
    if (result.ok) navigate(`/c/${encodeURIComponent(result.data.id)}`);
    else setProblem(explainShareError(result.error, "copy it to your account"));
  };

  // Back from signing in after "Continue in your account": do what was asked.
  useEffect(() => {
    if (session !== "signed_in" || loaded.status !== "ready") return;
    if (sessionStorage.getItem(FORK_AFTER_SIGN_IN) !== id) return;
    sessionStorage.removeItem(FORK_AFTER_SIGN_IN);
    void fork();
  }, [session, loaded.status, id]);

  const state = useMemo(() => (loaded.status === "ready" ? snapshotState(loaded.shared.messages) : null), [loaded]);
  const links = useMemo(() => {
    if (loaded.status !== "ready") return null;
    const { share, messages } = loaded.shared;
    const shown = new Set(messages.flatMap((m) => (m.role === "user" ? (m.attachments ?? []).map((a) => a.id) : [])));
    return sharedFileLinks(id, share.include_files === true, shown);
  }, [loaded, id]);

  if (loaded.status !== "ready" || !state || !links) {
    return (
      <div class={style.page} data-testid="shared-page" data-status={loaded.status}>
        <Brand />
        <div class={style.message} role={loaded.status === "loading" ? undefined : "alert"}>
          {loaded.status === "loading" && <p aria-busy="true">Loading the shared conversation…</p>}
          {loaded.status === "not_found" && (
            <>
              <h1 class={style.notFound} data-testid="shared-not-found">
                This link doesn't exist or was revoked
              </h1>
              <p>Ask whoever shared it for a new link.</p>
            </>
          )}
          {loaded.status === "failed" && <p>{loaded.message}</p>}
        </div>
      </div>
    );
  }

  const { share } = loaded.shared;
  return (
    <div class={style.page} data-testid="shared-page" data-status="ready">
      <header class={style.bar}>
        <Brand />
        <div class={style.heading}>
          <h1 class={style.title} data-testid="shared-title">
            {title}
          </h1>
          <p class={style.meta} data-testid="shared-meta">
            Shared conversation · snapshot of <time dateTime={share.created_at}>{shareDate(share.created_at)}</time>
          </p>
        </div>
        <button
          type="button"
          class={style.fork}
          onClick={() => void fork()}
          disabled={forking || session === "loading"}
          data-testid="shared-fork"
        >
          {forking ? "Copying…" : "Continue in your account"}
        </button>
      </header>
      {problem && (
        <p class={style.problem} role="alert" data-testid="shared-fork-error">
          {problem}
        </p>
      )}
      <main class={style.main}>
        {loaded.shared.messages.length === 0 ? (
          <p class={style.message}>This conversation had no messages when it was shared.</p>
        ) : (
          <FileLinksContext.Provider value={links}>
            <MessageList state={state} connected={false} activity={null} fromTop />
          </FileLinksContext.Provider>
        )}
      </main>
    </div>
  );
}

function Brand() {
  return (
    <a href="/" class={style.brand} data-testid="shared-brand">
      <span aria-hidden="true">◎</span> Oracle
    </a>
  );
}
