// Copy to the clipboard with feedback: "copied" or "failed" for a moment after each try, then idle
// again. One hook for every Copy button (messages, code blocks).
import { useEffect, useState } from "preact/hooks";

export type CopyState = "idle" | "copied" | "failed";

const FEEDBACK_MS = 1500;

export function useCopy(text: string): { state: CopyState; copy: () => void } {
  const [state, setState] = useState<CopyState>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    // Without a clipboard (an insecure origin) there is nothing to try.
    if (!navigator.clipboard) return setState("failed");
    navigator.clipboard.writeText(text).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return { state, copy };
}

/** The button's words for each state. */
export const COPY_LABELS: Record<CopyState, string> = { idle: "Copy", copied: "Copied", failed: "Copy failed" };
