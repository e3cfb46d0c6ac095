// The model a conversation's next turns use: its own choice (PATCH /api/conversations/:id `model`), or
// null for the user's default. A choice shows at once and goes back if the server refuses it, with why.
// While a choice is being saved, `saving` holds the composer's Send: a message sent then would start its
// turn on the model the server still has.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ConversationSchema, type ModelRef } from "../../../protocol";
import { requestJson } from "./api";

/** `saved`: what the server said the conversation has (undefined until it said). */
export function useConversationModel(id: string, saved: ModelRef | null | undefined) {
  const [model, setModel] = useState<ModelRef | null>(saved ?? null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(0);
  const chosen = useRef(false);
  // The server's answer arrives after the chat opened; a choice made meanwhile wins.
  useEffect(() => {
    if (saved !== undefined && !chosen.current) setModel(saved);
  }, [saved]);

  const choose = useCallback(
    async (next: ModelRef): Promise<boolean> => {
      chosen.current = true;
      const before = model;
      setModel(next);
      setSaving((n) => n + 1);
      const result = await requestJson(`/api/conversations/${encodeURIComponent(id)}`, ConversationSchema, "PATCH", {
        model: next,
      }).finally(() => setSaving((n) => n - 1));
      if (result.ok) {
        setError(null);
        setModel(result.data.model ?? null);
        return true;
      }
      setModel(before);
      setError(`Could not switch to ${next.model}: ${result.error.message}`);
      return false;
    },
    [id, model],
  );

  return { model, choose, error, saving: saving > 0 };
}
