// An image at full size, over the page: a modal <dialog> (the page behind is inert), the image as large
// as the window allows, its name, Download and Close. Tab stays inside it (lib/focus-trap.ts); Esc,
// Close or a click on the backdrop close it, and the caller gives the focus back to the thumbnail. Esc
// here never also stops the chat's running turn.
import { useEffect, useId, useRef } from "preact/hooks";
import { trapTab } from "../../lib/focus-trap";
import { Icon } from "../../ui/icon";
import { CLOSE, DOWNLOAD } from "../../ui/icon/paths";
import style from "./style.module.css";

type Props = { src: string; download: string; name: string; onClose: () => void };

export function ImageViewer({ src, download, name, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    closeButton.current?.focus();
    return () => element.close();
  }, []);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  return (
    <dialog
      ref={dialog}
      class={style.viewer}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === "Tab" && dialog.current) trapTab(event, dialog.current);
        if (event.key !== "Escape") return;
        event.preventDefault(); // the chat's Esc (stop the turn) checks this
        event.stopPropagation();
        close();
      }}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) close(); // the backdrop
      }}
      data-testid="image-viewer"
    >
      <div class={style.viewerBar}>
        <h2 id={titleId} class={style.viewerTitle} title={name}>
          {name}
        </h2>
        <a
          class={style.viewerButton}
          href={download}
          download={name}
          aria-label={`Download ${name}`}
          data-testid="image-viewer-download"
        >
          <Icon path={DOWNLOAD} size="18px" />
        </a>
        <button
          ref={closeButton}
          type="button"
          class={style.viewerButton}
          aria-label="Close"
          onClick={close}
          data-testid="image-viewer-close"
        >
          <Icon path={CLOSE} size="18px" />
        </button>
      </div>
      <img class={style.full} src={src} alt={name} data-testid="image-viewer-image" />
    </dialog>
  );
}
