// One share link in a list (Settings → Shared links, the share dialog): the conversation's title when
// asked, when it was made and what it includes; Open (a new tab), Copy (the absolute address) and
// Revoke, which asks first ("Revoke" again or Cancel; Cancel gives the focus back to Revoke) because a
// revoked link cannot come back: it answers 404 from then on.
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiResult } from "../../lib/api";
import { explainShareError, type Share, shareAddress, shareDate, shareIncludes } from "../../lib/shares";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import style from "./style.module.css";

type Props = {
  share: Share;
  /** Show the conversation's title (Settings lists every conversation's links; the dialog one's). */
  withTitle?: boolean;
  onRevoke: (share: Share) => Promise<ApiResult<null>>;
};

export function ShareRow({ share, withTitle = false, onRevoke }: Props) {
  const address = shareAddress(share);
  const { state: copied, copy } = useCopy(address);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  const questionId = `share-revoke-${share.id}`;

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
    else if (asked.current) revokeButton.current?.focus();
    asked.current = confirming;
  }, [confirming]);

  const revoke = async () => {
    setBusy(true);
    setProblem(null);
    const result = await onRevoke(share);
    setBusy(false);
    // On success (or a link already gone) the list drops this row.
    if (!result.ok && result.error.status !== 404) {
      setConfirming(false);
      setProblem(explainShareError(result.error, "revoke the link"));
    }
  };

  return (
    <li class={style.row} data-testid="share-row" data-share-id={share.id}>
      <div class={style.about}>
        {withTitle && (
          <span class={style.title} data-testid="share-title">
            {share.title || "Untitled conversation"}
          </span>
        )}
        <span class={style.meta}>
          <time dateTime={share.created_at}>{shareDate(share.created_at)}</time>
          <span aria-hidden="true"> · </span>
          <span data-testid="share-includes">{shareIncludes(share)}</span>
        </span>
      </div>
      {confirming ? (
        <div class={style.actions}>
          <span id={questionId} class={style.question}>
            Revoke this link? It stops working at once.
          </span>
          <button type="button" onClick={() => setConfirming(false)} disabled={busy} data-testid="share-revoke-cancel">
            Cancel
          </button>
          <button
            type="button"
            ref={confirmButton}
            class={style.danger}
            aria-describedby={questionId}
            disabled={busy}
            onClick={() => void revoke()}
            data-testid="share-revoke-confirm"
          >
            {busy ? "Revoking…" : "Revoke"}
          </button>
        </div>
      ) : (
        <div class={style.actions}>
          <a class={style.action} href={address} target="_blank" rel="noopener noreferrer" data-testid="share-open">
            Open
          </a>
          <button type="button" onClick={copy} data-testid="share-copy" aria-label={`${COPY_LABELS[copied]} link`}>
            {COPY_LABELS[copied]}
          </button>
          <button type="button" ref={revokeButton} onClick={() => setConfirming(true)} data-testid="share-revoke">
            Revoke
          </button>
        </div>
      )}
      {problem && (
        <p class={style.problem} role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
