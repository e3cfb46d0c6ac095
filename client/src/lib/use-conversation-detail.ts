// One conversation's title, model and existence (GET /api/conversations/:id), so the chat can say "not
// found" instead of retrying a socket that will never open.
import { useEffect, useState } from "preact/hooks";
import type { ModelRef } from "../../../protocol";
import { requestJson } from "./api";
import { ConversationDetailSchema } from "./response-schemas";

export type ConversationDetail =
  | { status: "loading" }
  /** `model`: the conversation's own choice, null when it uses the user's default. */
  | { status: "found"; title: string; model: ModelRef | null }
  | { status: "not_found" }
  | { status: "failed"; message: string };

export function useConversationDetail(id: string): ConversationDetail {
  const [detail, setDetail] = useState<ConversationDetail>({ status: "loading" });
  useEffect(() => {
    let live = true;
    void requestJson(`/api/conversations/${encodeURIComponent(id)}`, ConversationDetailSchema).then((result) => {
      if (!live) return;
      if (result.ok) setDetail({ status: "found", title: result.data.title, model: result.data.model ?? null });
      else if (result.error.status === 404) setDetail({ status: "not_found" });
      else setDetail({ status: "failed", message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, [id]);
  return detail;
}
