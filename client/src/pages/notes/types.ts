// What the Notes page's parts pass around: the status line above the content and the notes data layer.
import type { useNotes } from "../../lib/use-notes";

export type Status = { text: string; error?: boolean };
export type OnStatus = (status: Status | null) => void;
export type Notes = ReturnType<typeof useNotes>;
