// The signed-in user's conversations for the sidebar: list, create (with its first message), rename, pin,
// take a title the model wrote (announced from the open chat's socket), and delete with Undo. Errors are
// kept for display rather than thrown, so a failing request never blanks the list.
//
// Delete is deferred (use-deferred-delete.ts): the conversation leaves the list at once, but DELETE is
// sent only when the Undo window closes, another delete comes, or the page is left (pagehide, with
// keepalive), so Undo needs no server support: nothing was deleted yet.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type Conversation, ConversationSchema, type ModelRef } from "../../../protocol";
import { requestEmpty, requestJson } from "./api";
import { onConversationsAnnounced, onTitleAnnounced } from "./conversation-groups";
import { ConversationListSchema } from "./response-schemas";
import { useDeferredDelete } from "./use-deferred-delete";

/** How long "Deleted … · Undo" stays before the DELETE is sent. */
export const UNDO_MS = 6_000;
export type { PendingDelete } from "./use-deferred-delete";

const conversationPath = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

/** A first message's first line with words, until the server's title (markdown stripped) replaces it. */
const provisionalTitle = (message: string) =>
  (message.split("\n").find((line) => /\p{L}|\p{N}/u.test(line)) ?? "").trim().slice(0, 60);

/**
 * The list as the server last gave it, kept from going back in time: `changes` counts the changes made
 * here, and a list asked for before one of them is asked for again.
 */
function useConversationIndex() {
  const [all, setAll] = useState<Conversation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** How many lists were asked for, and how many changes made here (create, rename, delete) were applied. */
  const asked = useRef(0);
  const changes = useRef(0);
  /** A new conversation's name from its first message, kept until the index has named it too. */
  const named = useRef(new Map<string, string>());

  // A list is applied only if it is the newest asked for and nothing was changed here while it was on
  // its way: else it could undo that change (the page's first list, answering after "New" had made a
  // conversation, took it out of the sidebar; a list asked for just before a rename brought the old
  // title back). Overtaken by a change, it is asked for again.
  const refresh = useCallback(async () => {
    const ask = ++asked.current;
    for (;;) {
      const before = changes.current;
      const result = await requestJson("/api/conversations", ConversationListSchema);
      if (ask !== asked.current) return; // a newer list is on its way
      if (before !== changes.current) continue;
      if (result.ok) {
        setAll(result.data.map((c) => withName(c, named.current)));
        setError(null);
      } else setError(result.error.message);
      return;
    }
  }, []);

  useEffect(() => {
    void refresh();
    return onConversationsAnnounced(() => void refresh());
  }, [refresh]);

  // A title the model wrote after the first answer: shown at once, without waiting for a list.
  useEffect(
    () =>
      onTitleAnnounced((id, title) => {
        changes.current++;
        setAll((list) => list?.map((c) => (c.id === id ? { ...c, title, title_source: "model" } : c)) ?? list);
      }),
    [],
  );

  return { all, setAll, error, setError, refresh, changes, named };
}

/** The index names a conversation once its first message reached it: until then, the name given here. */
function withName(conversation: Conversation, named: Map<string, string>): Conversation {
  const title = named.get(conversation.id);
  if (title === undefined) return conversation;
  if (conversation.title_source === "default") return { ...conversation, title };
  named.delete(conversation.id);
  return conversation;
}

export function useConversations() {
  const { all, setAll, error, setError, refresh, changes, named } = useConversationIndex();

  /**
   * Makes a conversation for a first message (sent from home). Its row is named by that message at once,
   * as the index names it a moment later (d1/titles.ts), so it never reads "New conversation".
   * A refusal comes back with its reason: the list's own error is cleared by the next list that loads.
   */
  const create = useCallback(async (firstMessage: string): Promise<Conversation | { refused: string }> => {
    const result = await requestJson("/api/conversations", ConversationSchema, "POST", {});
    if (!result.ok) {
      setError(result.error.message);
      return { refused: result.error.message };
    }
    changes.current++;
    const title = provisionalTitle(firstMessage);
    if (title) named.current.set(result.data.id, title);
    const row = withName(result.data, named.current);
    setAll((current) => [row, ...(current ?? []).filter((c) => c.id !== row.id)]);
    return result.data;
  }, []);

  /** A PATCH of one conversation whose answer `apply` writes into the list; false (and the error) if refused. */
  const update = useCallback(
    async (id: string, body: object, apply: (c: Conversation, answer: Conversation) => Conversation) => {
      const result = await requestJson(conversationPath(id), ConversationSchema, "PATCH", body);
      if (!result.ok) {
        setError(result.error.message);
        return false;
      }
      setError(null);
      changes.current++;
      setAll((list) => (list ?? []).map((c) => (c.id === id ? apply(c, result.data) : c)));
      return true;
    },
    [],
  );
  const rename = useCallback(
    (id: string, title: string) => update(id, { title }, (c, answer) => ({ ...c, title: answer.title })),
    [update],
  );
  const pin = useCallback(
    (id: string, pinned: boolean) => update(id, { pinned }, (c, answer) => ({ ...c, pinned: answer.pinned ?? pinned })),
    [update],
  );

  const sendDelete = useCallback(
    async (id: string) => {
      const result = await requestEmpty(conversationPath(id), "DELETE");
      if (!result.ok && result.error.status !== 404) {
        setError(`Could not delete the conversation: ${result.error.message}`);
        void refresh();
        return;
      }
      changes.current++;
      setAll((list) => (list ?? []).filter((c) => c.id !== id));
    },
    [refresh],
  );

  const { pending, commitDelete, scheduleDelete, undoDelete } = useDeferredDelete(
    sendDelete,
    conversationPath,
    UNDO_MS,
  );

  const conversations = useMemo(() => (all && pending ? all.filter((c) => c.id !== pending.id) : all), [all, pending]);

  /** Sets the model a conversation's turns use (a new conversation's, picked on the home page). */
  const chooseModel = useCallback(async (id: string, model: ModelRef): Promise<boolean> => {
    const result = await requestJson(conversationPath(id), ConversationSchema, "PATCH", { model });
    if (!result.ok) setError(result.error.message);
    return result.ok;
  }, []);

  return {
    conversations,
    error,
    refresh,
    create,
    rename,
    pin,
    chooseModel,
    scheduleDelete,
    undoDelete,
    commitDelete,
    pendingDelete: pending,
  };
}
