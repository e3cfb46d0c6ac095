// A list the API answers (the tasks, the share links): loading, failed with a sentence a person can act
// on, or ready. `update` changes the ready list in place, which is what a create or a delete the server
// agreed to does; `reload` asks again. `load` and `explain` must be stable (module-level) functions.
import { useCallback, useEffect, useState } from "preact/hooks";
import type { ApiError, ApiResult } from "./api";

export type ListState<T> =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; items: T[] };

export function useList<T>(load: () => Promise<ApiResult<T[]>>, explain: (error: ApiError) => string) {
  const [list, setList] = useState<ListState<T>>({ status: "loading" });

  const reload = useCallback(async () => {
    const result = await load();
    setList(result.ok ? { status: "ready", items: result.data } : { status: "failed", message: explain(result.error) });
  }, [load, explain]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = useCallback((change: (items: T[]) => T[]) => {
    setList((current) => (current.status === "ready" ? { ...current, items: change(current.items) } : current));
  }, []);

  return { list, reload, update };
}
