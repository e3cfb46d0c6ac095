// The user's share links (GET /api/shares, newest first), for Settings → Shared links and the share
// dialog (which shows those of one conversation): create puts the new link on top, revoke takes it
// off once the server agrees (an already-gone link is taken off too).
import { useCallback } from "preact/hooks";
import type { ApiError, ApiResult } from "./api";
import { createShare, explainShareError, listShares, revokeShare, type Share, type ShareOptions } from "./shares";
import { type ListState, useList } from "./use-list";

export type ShareListState = ListState<Share>;

const explainLoad = (error: ApiError) => explainShareError(error, "load your shared links");

export function useShares(conversationId?: string) {
  const { list, reload, update } = useList(listShares, explainLoad);

  const create = useCallback(
    async (id: string, options: ShareOptions): Promise<ApiResult<Share>> => {
      const result = await createShare(id, options);
      if (result.ok) update((shares) => [result.data, ...shares.filter((s) => s.id !== result.data.id)]);
      return result;
    },
    [update],
  );

  const revoke = useCallback(
    async (share: Share): Promise<ApiResult<null>> => {
      const result = await revokeShare(share.id);
      if (result.ok || result.error.status === 404) update((shares) => shares.filter((s) => s.id !== share.id));
      return result;
    },
    [update],
  );

  const shown: ShareListState =
    list.status === "ready" && conversationId
      ? { status: "ready", items: list.items.filter((s) => s.conversation_id === conversationId) }
      : list;
  return { list: shown, create, revoke, reload };
}
