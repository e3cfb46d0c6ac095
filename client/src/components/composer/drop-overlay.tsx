// Files dragged onto the conversation (or onto home): while they are over it an overlay says "Drop files
// to attach", and dropped they go to the composer's files. Only a drag that carries files counts: text
// or a link dragged within the page does what it always did. The page puts the handlers on its area
// (which must be `position: relative`) and the overlay inside it.
import { useState } from "preact/hooks";
import style from "./style.module.css";

/** A drag carrying files: taken (the page would open a dropped file otherwise). */
function takes(event: DragEvent): boolean {
  if (!event.dataTransfer?.types.includes("Files")) return false;
  event.preventDefault();
  return true;
}

export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDragOver: (event: DragEvent) => takes(event) && setDragging(true),
    // Into a child of the area is not out of it.
    onDragLeave: (event: DragEvent) =>
      (event.currentTarget as Node).contains(event.relatedTarget as Node | null) || setDragging(false),
    onDrop: (event: DragEvent) => {
      if (!takes(event)) return;
      setDragging(false);
      onFiles([...(event.dataTransfer?.files ?? [])]);
    },
  };
  return { dragging, handlers };
}

export function DropOverlay({ shown }: { shown: boolean }) {
  return shown ? (
    <div class={style.dropOverlay} data-testid="drop-overlay">
      <span class={style.dropText}>Drop files to attach</span>
    </div>
  ) : null;
}
