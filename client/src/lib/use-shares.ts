// The user's share links (GET /api/shares, newest first), for Settings → Shared links and the share
// dialog (which shows those of one conversation): create puts the new link on top, revoke takes it
// off once the server agrees (an already-gone link is taken off too).
import { useCallback, useEffect, useState } from "preact/hooks";
import type { ApiResult } from "./api";
import { createShare, explainShareError, listShares, revokeShare, type Share, type ShareOptions } from "./shares";

export type ShareListState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; shares: Share[] };

export function useShares(conversationId?: string) {
  const [list, setList] = useState<ShareListState>({ status: "loading" });

  const reload = useCallback(async () => {
    const result = await listShares();
    setList(
      result.ok
        ? { status: "ready", shares: result.data }
        : { status: "failed", message: explainShareError(result.error, "load your shared links") },
    );
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = useCallback((change: (shares: Share[]) => Share[]) => {
    setList((current) => (current.status === "ready" ? { ...current, shares: change(current.shares) } : current));
  }, []);

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
      ? { status: "ready", shares: list.shares.filter((s) => s.conversation_id === conversationId) }
      : list;
  return { list: shown, create, revoke, reload };
}
