// The user's own message: a right-aligned bubble, its time and Copy; any of them can be edited and sent
// again as a new version (a new branch from there; the original and what followed it stay, one ‹ › away).
// Esc or Cancel closes the editor and gives the focus back to Edit. The message's files show under it
// (components/attachments/); the editor keeps them as chips, and one removed there is left out of the
// new version.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Attachment, UserMessage as Message } from "../../../../protocol";
import { PlainText } from "../../ui/plain-text";
import { ActionButton, MessageActions } from "../message-actions";
import { lazyPart } from "../shell/lazy";
import style from "./style.module.css";

// A message's files, and their chips in the editor: loaded with the first message that has any.
const MessageFiles = lazyPart(() => import("../attachments").then((m) => m.MessageFiles));
const EditFiles = lazyPart(() => import("../attachments").then((m) => m.EditFiles));

type Props = {
  message: Message;
  /**
   * Sends the edited text (and, for a message with files, the ids of those kept) as a new version of this
   * message; true when sent. Absent: no Edit (read-only).
   */
  onEdit?: (content: string, attachments?: string[]) => boolean;
  /** Why Edit cannot be used now (a turn is running…): the button is disabled with this tooltip. */
  blocked?: string | null;
  /** Told when the inline editor opens or closes (Esc then cancels the edit, not the turn). */
  onEditingChange?: (editing: boolean) => void;
  /** ‹ n/m › when this message has versions. */
  switcher?: ComponentChildren;
};

export function UserMessage({ message, onEdit, blocked, onEditingChange, switcher }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const files = message.attachments ?? [];
  const [kept, setKept] = useState<readonly Attachment[]>(files);
  const editor = useRef<HTMLTextAreaElement>(null);
  const row = useRef<HTMLDivElement>(null);
  /** Set by Esc and Cancel: the focus goes back to this message's Edit button, where the user was. */
  const backToEdit = useRef(false);
  const editing = draft !== null && onEdit !== undefined;

  useEffect(() => {
    onEditingChange?.(editing);
    if (editing) editor.current?.focus();
    else if (backToEdit.current) row.current?.querySelector<HTMLElement>("[data-testid=edit-message]")?.focus();
    backToEdit.current = false;
  }, [editing, onEditingChange]);
  useEffect(() => () => onEditingChange?.(false), [onEditingChange]);

  const cancel = () => {
    backToEdit.current = true;
    setDraft(null);
  };

  const startEdit = () => {
    setKept(files);
    setDraft(message.content);
  };

  const canSave = !blocked && (!!draft?.trim() || kept.length > 0);
  const save = () => {
    const content = draft?.trim() ?? "";
    if (!canSave) return;
    const ids = files.length ? kept.map((f) => f.id) : undefined;
    if (onEdit?.(content, ids)) setDraft(null);
  };

  return (
    <div ref={row} class={style.row}>
      {message.origin?.kind === "schedule" && (
        <p class={style.origin} data-testid="scheduled-label">
          {`Scheduled · ${message.origin.name} · `}
          <time dateTime={message.origin.due_at}>
            {new Date(message.origin.due_at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
          </time>
        </p>
      )}
      <article class={style.message} data-role="user" data-seq={message.seq}>
        {editing ? (
          <form
            class={style.editor}
            data-testid="edit-form"
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <textarea
              ref={editor}
              class={style.input}
              rows={3}
              value={draft ?? ""}
              aria-label="Edit your message"
              onInput={(event) => setDraft(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  event.preventDefault();
                  event.stopPropagation();
                  cancel();
                } else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
                  event.preventDefault();
                  save();
                }
              }}
              data-testid="edit-input"
            />
            {kept.length > 0 && (
              <EditFiles files={kept} onRemove={(id) => setKept((list) => list.filter((f) => f.id !== id))} />
            )}
            <div class={style.editorButtons}>
              <button type="button" class={style.cancel} onClick={cancel} data-testid="edit-cancel">
                Cancel
              </button>
              <button
                type="submit"
                class={style.save}
                disabled={!canSave}
                title={blocked ?? undefined}
                data-testid="edit-save"
              >
                Save &amp; send
              </button>
            </div>
          </form>
        ) : (
          message.content !== "" && (
            <div class={style.bubble} title={new Date(message.created_at).toLocaleString()}>
              <PlainText text={message.content} />
            </div>
          )
        )}
        {!editing && files.length > 0 && <MessageFiles files={files} />}
      </article>
      <MessageActions createdAt={message.created_at} copyText={message.content} align="end">
        {switcher}
        {onEdit && !editing && (
          <ActionButton
            onClick={startEdit}
            disabled={!!blocked}
            title={blocked ?? undefined}
            testid="edit-message"
            label="Edit and send as a new version"
          >
            Edit
          </ActionButton>
        )}
      </MessageActions>
    </div>
  );
}
