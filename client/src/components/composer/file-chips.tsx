// The files of a message being written, one chip each: a thumbnail for an image (else a file icon), the
// name (text, cut with an ellipsis, whole in its tooltip), the size, a progress bar while it uploads, the
// server's reason when it failed, and × to remove it before sending. Also the edit of a sent message's
// files (components/user-message/).
import { type Attachment, fileSizeWords } from "../../../../protocol";
import { fileUrl } from "../../lib/file-links";
import { blindModelWarning } from "../../lib/file-words";
import { type Attachments, type ComposerFile, readyChip } from "../../lib/use-attachments";
import { useModelInView } from "../../lib/use-models";
import { Icon } from "../../ui/icon";
import { CLOSE } from "../../ui/icon/paths";
import style from "./chips.module.css";
import composer from "./style.module.css";

type Props = {
  items: readonly ComposerFile[];
  onRemove: (key: string) => void;
  label?: string;
};

/** Over the composer's box: why files given were refused (nothing of them uploaded), then the chips. */
export function ComposerFiles({ attachments }: { attachments: Attachments }) {
  return (
    <>
      {attachments.refusals.map((refusal) => (
        <p key={refusal} class={composer.problem} role="alert" data-testid="attach-refusal">
          {refusal}
        </p>
      ))}
      <FileChips items={attachments.items} onRemove={attachments.remove} />
    </>
  );
}

/** Under the composer's box, before sending: the model in view would get an attached image's name only. */
export function ImageWarning() {
  const model = useModelInView();
  if (!model || model.image_input) return null;
  return (
    <p class={composer.warning} role="status" data-testid="image-model-warning">
      {blindModelWarning(model.model)}
    </p>
  );
}

/** A sent message's files in its editor: already uploaded, so removing one only leaves it out. */
export function EditFiles({ files, onRemove }: { files: readonly Attachment[]; onRemove: (id: string) => void }) {
  return (
    <FileChips
      items={files.map((file) => readyChip(file, file.id))}
      onRemove={onRemove}
      label="Files of this message"
    />
  );
}

export function FileChips({ items, onRemove, label = "Attached files" }: Props) {
  if (items.length === 0) return null;
  return (
    <ul class={style.chips} aria-label={label} data-testid="attachment-chips">
      {items.map((item) => (
        <li
          key={item.key}
          class={`${style.chip} ${item.status === "failed" ? style.failed : ""}`}
          data-testid="attachment-chip"
          data-name={item.name}
          data-status={item.status}
        >
          {item.image && (item.preview || item.file) ? (
            <img class={style.thumb} src={item.preview ?? (item.file && fileUrl(item.file.id))} alt="" />
          ) : (
            <span class={style.icon}>
              <Icon name="file" size="20px" />
            </span>
          )}
          <span class={style.text}>
            <span class={style.name} title={item.name} data-testid="attachment-chip-name">
              {item.name}
            </span>
            <span class={style.meta}>
              {item.status === "failed" ? (
                <span class={style.error} role="alert" data-testid="attachment-chip-error">
                  {item.error}
                </span>
              ) : (
                fileSizeWords(item.size)
              )}
            </span>
            {item.status === "uploading" && (
              <span
                class={style.progress}
                role="progressbar"
                aria-label={`Uploading ${item.name}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(item.progress * 100)}
                data-testid="attachment-progress"
              >
                <span class={style.bar} style={{ width: `${Math.round(item.progress * 100)}%` }} />
              </span>
            )}
          </span>
          <button
            type="button"
            class={style.remove}
            aria-label={`Remove ${item.name}`}
            title={`Remove ${item.name}`}
            onClick={() => onRemove(item.key)}
            data-testid="attachment-remove"
          >
            <Icon path={CLOSE} size="14px" />
          </button>
        </li>
      ))}
    </ul>
  );
}
