// A file as a chip (components/attachments/): an icon, its name (text only), its type, length and size
// ("PDF · 12 pages · 34 KB"), and links to open it in a new tab and to download it, from the address the
// page gives (lib/file-links.ts); on a page that shows names only, no link.
import type { Attachment } from "../../../../protocol";
import { useFileLinks } from "../../lib/file-links";
import { attachmentLine } from "../../lib/file-words";
import { Icon } from "../../ui/icon";
import { DOWNLOAD, EXTERNAL } from "../../ui/icon/paths";
import style from "./style.module.css";

/** A document (or, on a page without the files, any file): icon, name, what it is, open and download. */
export function FileChip({ file }: { file: Attachment }) {
  const links = useFileLinks();
  const url = links.url(file.id);
  const download = links.url(file.id, true);
  return (
    <div
      class={style.chip}
      data-testid="attachment-file"
      data-file-id={file.id}
      data-kind={file.kind}
      data-linked={url ? "true" : "false"}
    >
      <span class={style.icon}>
        <Icon name="file" size="20px" />
      </span>
      <span class={style.text}>
        <span class={style.name} title={file.name} data-testid="attachment-file-name">
          {file.name}
        </span>
        <span class={style.meta} data-testid="attachment-file-meta">
          {attachmentLine(file)}
        </span>
      </span>
      {url && (
        <a
          class={style.action}
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open ${file.name} in a new tab`}
          title="Open in a new tab"
          data-testid="attachment-open"
        >
          <Icon path={EXTERNAL} size="16px" />
        </a>
      )}
      {download && (
        <a
          class={style.action}
          href={download}
          download={file.name}
          aria-label={`Download ${file.name}`}
          title="Download"
          data-testid="attachment-download"
        >
          <Icon path={DOWNLOAD} size="16px" />
        </a>
      )}
    </div>
  );
}
