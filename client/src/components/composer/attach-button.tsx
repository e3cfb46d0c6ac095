// The composer's paperclip: a button (named "Attach files", reached by Tab like any other) that opens the
// system's file picker, several files at once. `accept` lists what the server takes and `image/*`, so a
// phone offers its camera beside its files.
import { useRef } from "preact/hooks";
import { ACCEPTED_EXTENSIONS } from "../../../../protocol";
import { Icon } from "../../ui/icon";
import style from "./style.module.css";

const ACCEPT = [...ACCEPTED_EXTENSIONS, "image/*"].join(",");

export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        class={style.optionsButton}
        aria-label="Attach files"
        title="Attach files"
        onClick={() => input.current?.click()}
        data-testid="attach-button"
      >
        <Icon name="paperclip" size="18px" />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        class={style.fileInput}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          // Emptied, so picking the same file again (after removing it) is a change too.
          event.currentTarget.value = "";
          onFiles(files);
        }}
        data-testid="attach-input"
      />
    </>
  );
}
