// Messages the user sent that the conversation has not confirmed yet (issue 41), one outbox per
// conversation, kept in localStorage so that neither a dropped connection nor a reload loses one. Each is
// a chat frame with a client_id: the chat sends it (again, after a drop or a reload) until its user
// message comes back carrying that id, or `chat_duplicate` says it is in; the server never starts the
// same id twice (docs/protocol.md "chat"). The home page's first message waits here too, while its
// conversation opens. A tab works from its own copy and sends what it holds; what another tab of the
// same conversation added meanwhile stays stored beside it. Storage that is refused or full only costs
// the copy that outlives the tab. Signing out forgets them all.
import { type Attachment, AttachmentSchema, type ChatFrame, ChatFrameSchema } from "../../../protocol";

export type Outgoing = ChatFrame & { client_id: string };
export type Outbox = ReturnType<typeof openOutbox>;

const PREFIX = "oracle-outbox:";

function stored(key: string): Outgoing[] {
  try {
    const read = ChatFrameSchema.array().safeParse(JSON.parse(localStorage.getItem(key) ?? "[]"));
    if (read.success) return read.data.filter((frame): frame is Outgoing => !!frame.client_id);
  } catch {}
  return [];
}

/** The outbox of one conversation as stored; `changed` is told each time its list changes. */
export function openOutbox(conversationId: string, changed: () => void = () => {}) {
  const key = PREFIX + conversationId;
  // Every message this tab has held: the stored ones it has not are another tab's, and stay.
  const held = new Set<string>();
  const set = (pending: Outgoing[]) => {
    if (pending.length === outbox.pending.length) return;
    outbox.pending = pending;
    for (const frame of pending) held.add(frame.client_id);
    const all = [...pending, ...stored(key).filter((frame) => !held.has(frame.client_id))];
    try {
      if (all.length) localStorage.setItem(key, JSON.stringify(all));
      else localStorage.removeItem(key);
    } catch {}
    changed();
  };
  const outbox = {
    /** Oldest first; a new array at each change. */
    pending: stored(key),
    /** Refused by the server for a reason other than a running turn: sent again only on Retry. */
    refused: new Set<string>(),
    /** Sends the next one if the socket can take it now (the chat's socket sets it). */
    flush: () => {},
    add(frame: ChatFrame) {
      const client_id = `m${crypto.getRandomValues(new Uint32Array(4)).join("-")}`;
      set([...outbox.pending, { ...frame, client_id }]);
    },
    /** Confirmed (its user message came back, or chat_duplicate), or taken back to be edited. */
    remove(clientId: string) {
      set(outbox.pending.filter((frame) => frame.client_id !== clientId));
    },
    /** What to send next: the oldest not refused. */
    next: () => outbox.pending.find((frame) => !outbox.refused.has(frame.client_id)),
  };
  for (const frame of outbox.pending) held.add(frame.client_id);
  return outbox;
}

/** At sign-out: what was not sent is the signed-out user's, not for the next one to find in this browser. */
export function forgetOutboxes(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {}
}

/** A first message typed on the home page (with the files attached there), for the conversation about to open. */
export function queueFirstMessage(conversationId: string, content: string, files: readonly Attachment[] = []): void {
  rememberFiles(files);
  const attachments = files.length ? { attachments: files.map((f) => f.id) } : {};
  openOutbox(conversationId).add({ type: "chat", content, ...attachments });
}

// A frame names its files by id only: what they are (for the waiting bubble, and to put them back in the
// composer on Edit) is kept beside the outboxes, under their prefix so that signing out forgets it too.
const FILES_KEY = `${PREFIX}~files`;
const KEPT_FILES = 50;

/** What the files of messages being sent are, as this browser knows them. */
export function storedFiles(): Attachment[] {
  try {
    const read = AttachmentSchema.array().safeParse(JSON.parse(localStorage.getItem(FILES_KEY) ?? "[]"));
    if (read.success) return read.data;
  } catch {}
  return [];
}

/** Keeps what the files of a message being sent are (the newest few dozen). */
export function rememberFiles(files: readonly Attachment[]): void {
  if (!files.length) return;
  const ids = new Set(files.map((f) => f.id));
  const kept = [...storedFiles().filter((f) => !ids.has(f.id)), ...files].slice(-KEPT_FILES);
  try {
    localStorage.setItem(FILES_KEY, JSON.stringify(kept));
  } catch {}
}
