// A message's files (docs/protocol.md "Files"), under its text: each image a thumbnail that opens the
// full-size view (a dialog, loaded on first use), each document a chip with an icon, its name, its type
// and length ("PDF · 12 pages") and links to open it (a new tab) or download it. Addresses come from
// the page (lib/file-links.ts): on a shared page without files, the names only, with no request made.
// A file's name is only ever text.
import { useRef, useState } from "preact/hooks";
import type { Attachment } from "../../../../protocol";
import { useFileLinks } from "../../lib/file-links";
import { attachedFileSentence } from "../../lib/file-words";
import { Icon } from "../../ui/icon";
import { lazyPart } from "../shell/lazy";
import { FileChip } from "./file-chip";
import style from "./style.module.css";

// One chunk for every file part the app loads on demand: the composer's chips, a tool card's parts.
export { ComposerFiles, EditFiles, ImageWarning } from "../composer/file-chips";
export { FileChip } from "./file-chip";
export { FileToolParts } from "./tool-parts";

const ImageViewer = lazyPart(() => import("./image-viewer").then((m) => m.ImageViewer));

/** A user message's files, at its end (the right). */
export function MessageFiles({ files }: { files: readonly Attachment[] }) {
  if (files.length === 0) return null;
  const images = files.filter((f) => f.kind === "image");
  const documents = files.filter((f) => f.kind !== "image");
  return (
    <div class={style.files} data-testid="message-files">
      {images.length > 0 && (
        <div class={style.thumbs}>
          {images.map((file) => (
            <Thumbnail key={file.id} file={file} />
          ))}
        </div>
      )}
      {documents.map((file) => (
        <FileChip key={file.id} file={file} />
      ))}
    </div>
  );
}

function Thumbnail({ file }: { file: Attachment }) {
  const links = useFileLinks();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const url = links.url(file.id);
  if (!url) return <FileChip file={file} />;
  return (
    <>
      <button
        ref={button}
        type="button"
        class={style.thumbButton}
        aria-label={`View ${file.name} full size`}
        title={file.name}
        onClick={() => setOpen(true)}
        data-testid="attachment-thumbnail"
        data-file-id={file.id}
      >
        <img class={style.thumb} src={url} loading="lazy" alt={file.name} width={file.width} height={file.height} />
      </button>
      {open && (
        <ImageViewer
          src={url}
          download={links.url(file.id, true) ?? url}
          name={file.name}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}

/** A document's System message (source "Files"): what the agent was given of it, in one line. */
export function AttachedFile(props: { file: Attachment; inline?: boolean; class?: string }) {
  const { file, inline } = props;
  return (
    <div class={props.class} data-testid="attached-file" data-file-id={file.id} data-inline={inline}>
      <Icon name="file" /> {attachedFileSentence(file, inline)}
    </div>
  );
}
