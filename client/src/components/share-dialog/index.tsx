// "Share…" from the conversation's ⋯ menu: a modal dialog (a native <dialog>, so the page behind is
// inert) that makes a read-only link to the conversation as it is now, with or without System messages,
// tool details and the messages' files (shown through the link's own address), shows it with Copy, and lists the conversation's other links with Revoke. Tab stays
// inside it; Esc, Close or a click on the backdrop close it, and the caller gives the focus back to
// the menu's button. Esc here never also stops the chat's running turn.
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { trapTab } from "../../lib/focus-trap";
import { explainShareError, type Share, shareAddress } from "../../lib/shares";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import { useShares } from "../../lib/use-shares";
import { ShareRow } from "../share-row";
import style from "./style.module.css";

type Props = { conversationId: string; onClose: () => void };

export function ShareDialog({ conversationId, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { list, create, revoke } = useShares(conversationId);
  const [includeSystem, setIncludeSystem] = useState(false);
  const [includeTools, setIncludeTools] = useState(false);
  const [includeFiles, setIncludeFiles] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<Share | null>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    return () => element.close();
  }, []);

  /** Leaves the top layer first, so the page is no longer inert when the caller moves the focus back. */
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Tab" && dialog.current) trapTab(event, dialog.current);
    if (event.key !== "Escape") return;
    event.preventDefault(); // the chat's Esc (stop the turn) checks this
    event.stopPropagation();
    close();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const result = await create(conversationId, {
      include_system: includeSystem,
      include_tools: includeTools,
      include_files: includeFiles,
    });
    setBusy(false);
    if (result.ok) setCreated(result.data);
    else setProblem(explainShareError(result.error, "create the link"));
  };

  return (
    <dialog
      ref={dialog}
      class={style.dialog}
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) close(); // the backdrop
      }}
      data-testid="share-dialog"
    >
      <div class={style.inner}>
        <h2 id={titleId} class={style.title}>
          Share this conversation
        </h2>
        <p class={style.note} data-testid="share-note">
          The link shows this conversation as it is now: a snapshot, so later messages are not shown. Anyone with the
          link can see it, without an account; your name is not shown.
        </p>
        <form class={style.form} onSubmit={(event) => void submit(event)}>
          <Choice checked={includeSystem} onChange={setIncludeSystem} testid="share-include-system">
            Include system messages
          </Choice>
          <Choice checked={includeTools} onChange={setIncludeTools} testid="share-include-tools">
            Include tool details
          </Choice>
          <Choice checked={includeFiles} onChange={setIncludeFiles} testid="share-include-files">
            Include files
          </Choice>
          <button type="submit" class={style.primary} disabled={busy} data-testid="share-create">
            {busy ? "Creating…" : "Create link"}
          </button>
        </form>
        {problem && (
          <p class={style.problem} role="alert" data-testid="share-error">
            {problem}
          </p>
        )}
        {created && <CreatedLink share={created} />}
        <h3 class={style.subtitle}>Links to this conversation</h3>
        {list.status === "loading" && <p class={style.muted}>Loading…</p>}
        {list.status === "failed" && (
          <p class={style.problem} role="alert">
            {list.message}
          </p>
        )}
        {list.status === "ready" &&
          (list.items.length === 0 ? (
            <p class={style.muted} data-testid="share-dialog-empty">
              None yet.
            </p>
          ) : (
            <ul class={style.list} data-testid="share-dialog-links">
              {list.items.map((share) => (
                <ShareRow key={share.id} share={share} onRevoke={revoke} />
              ))}
            </ul>
          ))}
        <div class={style.footer}>
          <button type="button" onClick={close} data-testid="share-close">
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** The link just made: its address to select or copy. The Copy button takes the focus. */
function CreatedLink({ share }: { share: Share }) {
  const address = shareAddress(share);
  const { state, copy } = useCopy(address);
  const copyButton = useRef<HTMLButtonElement>(null);
  const inputId = useId();
  useEffect(() => copyButton.current?.focus(), [share.id]);
  return (
    <div class={style.created} data-testid="share-created" data-share-id={share.id}>
      <label for={inputId} class={style.label}>
        Link created
      </label>
      <div class={style.linkRow}>
        <input
          id={inputId}
          class={style.link}
          readOnly
          value={address}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="share-link"
        />
        <button type="button" ref={copyButton} onClick={copy} data-testid="share-link-copy">
          {COPY_LABELS[state]}
        </button>
      </div>
      <span class={style.copied} role="status">
        {state === "copied" ? "Link copied" : ""}
      </span>
    </div>
  );
}

/** One of what the link includes: a labelled checkbox. */
function Choice(props: { checked: boolean; onChange: (on: boolean) => void; testid: string; children: string }) {
  return (
    <label class={style.check}>
      <input
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
        data-testid={props.testid}
      />
      {props.children}
    </label>
  );
}
