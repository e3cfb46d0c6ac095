// The signed-in user's conversations for the sidebar: list, create, delete. Errors are kept for display
// rather than thrown, so a failing request never blanks the list.
import { useCallback, useEffect, useState } from "preact/hooks";
import { type Conversation, ConversationSchema } from "../../../protocol";
import { requestEmpty, requestJson } from "./api";
import { ConversationListSchema } from "./response-schemas";

export function useConversations() {
  const [conversations, setConversations] = useState<Conversation[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const result = await requestJson("/api/conversations", ConversationListSchema);
    if (result.ok) {
      setConversations(result.data);
      setError(null);
    } else setError(result.error.message);
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const create = useCallback(async (): Promise<Conversation | null> => {
    const result = await requestJson("/api/conversations", ConversationSchema, "POST", {});
    if (!result.ok) {
      setError(result.error.message);
      return null;
    }
    setConversations((list) => [result.data, ...(list ?? []).filter((c) => c.id !== result.data.id)]);
    return result.data;
  }, []);

  const remove = useCallback(async (id: string): Promise<boolean> => {
    const result = await requestEmpty(`/api/conversations/${encodeURIComponent(id)}`, "DELETE");
    if (!result.ok && result.error.status !== 404) {
      setError(result.error.message);
      return false;
    }
    setConversations((list) => (list ?? []).filter((c) => c.id !== id));
    return true;
  }, []);

  return { conversations, error, refresh, create, remove };
}
