// The files of the message being written (docs/protocol.md "Files"): each given file is checked against
// the limits before anything is uploaded (lib/attach-rules.ts: a refusal in words, nothing sent), then
// uploaded on its own with its progress; a chip removed before sending aborts its upload or deletes the
// uploaded file. Sending takes the uploaded ones and empties the list. Held by the page (the chat,
// home), so a drop anywhere on it and the composer's button and paste all add to the same list. The
// checks and the uploader load with the first file given; the limits are asked for once a session, and
// what this page uploaded or removed since is counted in.
import { useEffect, useState } from "preact/hooks";
import type { Attachment } from "../../../protocol";
import type { AttachLimits } from "./attach-rules";

export type ComposerFile = {
  key: string;
  name: string;
  size: number;
  /** A thumbnail is shown: the browser's type says image until the server's kind says. */
  image: boolean;
  /** The thumbnail: the picked file as a data: URL (absent: the uploaded file's address, when an image). */
  preview?: string;
  /** 0…1 while uploading. */
  progress: number;
  status: "uploading" | "ready" | "failed";
  /** Why it failed, in the server's words. */
  error?: string;
  /** The file as the server kept it. */
  file?: Attachment;
};

export type Attachments = ReturnType<typeof useAttachments>;

/** What the uploader reaches of a page's list. */
export type AttachmentsState = {
  latest: { current: ComposerFile[] };
  setItems: (change: (list: ComposerFile[]) => ComposerFile[]) => void;
  patch: (key: string, change: Partial<ComposerFile>) => void;
  setRefusals: (refusals: string[]) => void;
  aborts: { current: Map<string, () => void> };
};

/** What the uploader (lib/attach-session.ts) keeps between messages: the limits, asked for once a
 * session, and the bytes this page uploaded (or removed, negative) since they were read. */
export const fileSession: { limits: Promise<AttachLimits | string> | null; sinceRead: number } = {
  limits: null,
  sinceRead: 0,
};

/** A sign-in or sign-out: the next user's limits and room are theirs. */
export function forgetFileLimits(): void {
  fileSession.limits = null;
  fileSession.sinceRead = 0;
}

let nextKey = 0;
export const newKey = () => `f${++nextKey}`;

/** An uploaded file as a chip (given back, or a sent message's file being edited). */
export const readyChip = (file: Attachment, key = newKey()): ComposerFile => ({
  key,
  name: file.name,
  size: file.size,
  image: file.kind === "image",
  progress: 1,
  status: "ready",
  file,
});

const session = () => import("./attach-session");

export function useAttachments() {
  const [items, setItems] = useState<ComposerFile[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  // What the uploader (lib/attach-session.ts, loaded with the first file) reaches: one object for the
  // page's life, so the actions below never change.
  const [state] = useState<AttachmentsState>(() => ({
    latest: { current: [] },
    setItems,
    patch(key, change) {
      const apply = (list: ComposerFile[]) => list.map((item) => (item.key === key ? { ...item, ...change } : item));
      this.latest.current = apply(this.latest.current); // at once: a removal may come before the next render
      setItems(apply);
    },
    setRefusals,
    aborts: { current: new Map() },
  }));
  state.latest.current = items;

  const [actions] = useState(() => ({
    /** Files picked, dropped or pasted: checked, then each uploaded; `pasted` names a nameless image. */
    add: (given: readonly File[], { pasted = false } = {}) =>
      given.length ? session().then((s) => s.addFiles(given, pasted, state)) : Promise.resolve(),
    /** Removed before sending: an upload stops, an uploaded file is deleted. */
    remove: (key: string) => void session().then((s) => s.removeFile(key, state)),
    /** Files already uploaded, put back (a message taken back from the outbox to be edited). */
    restore: (files: readonly Attachment[]) => setItems((list) => [...list, ...files.map((file) => readyChip(file))]),
    /** Sent: the list empties; the files now belong to the message. */
    take: () => {
      state.latest.current = []; // at once: a page left right after sending must not delete them (leave)
      setItems([]);
      setRefusals([]);
    },
  }));

  // Leaving the page with files not sent: uploads stop, uploaded files are deleted.
  useEffect(
    () => () => {
      if (state.latest.current.length) void session().then((s) => s.leave(state));
    },
    [],
  );

  return {
    items,
    refusals,
    ...actions,
    uploading: items.some((item) => item.status === "uploading"),
    failed: items.some((item) => item.status === "failed"),
    ready: items.filter((item) => item.status === "ready").length,
    hasImage: items.some((item) => item.image && item.status !== "failed"),
  };
}
