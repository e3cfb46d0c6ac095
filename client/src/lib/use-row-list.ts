// A list of the user's own things that a settings tab edits row by row (MCP servers, model providers):
// loaded once, kept in the server's order as rows are added and changed, each row with its own busy flag
// and its own error line. A PATCH can be shown at once and undone if the server says no, and an older
// PATCH's answer arriving late never undoes a newer change. use-mcp-servers.ts and use-providers.ts are
// this plus what their routes add (a test, a refresh of the model list).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { z } from "zod";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";

export type RowListState<T> =
  | { status: "loading" }
  /** The feature is not there for this user (a 404 from an older server, a 403 when turned off). */
  | { status: "unavailable" }
  | { status: "failed"; message: string }
  | { status: "ready"; items: T[] };

type Options<T> = {
  /** The collection's path, e.g. "/api/providers"; a row is `${base}/${id}`. */
  base: string;
  /** The list as the server answers it. */
  list: z.ZodType<T[]>;
  /** One row as the server answers it (POST, PATCH). */
  item: z.ZodType<T>;
  order: (a: T, b: T) => number;
  /** Which status says the feature is unavailable (not an error). */
  unavailable: number;
  /** After any change the server agreed to (a page-wide copy to refresh). */
  onChange?: () => void;
};

/** `Create` and `Patch`: the bodies of its POST and PATCH. */
export function useRowList<T extends { id: string }, Create, Patch>(options: Options<T>) {
  const { base, list, item, order, unavailable, onChange } = options;
  const [state, setState] = useState<RowListState<T>>({ status: "loading" });
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const latest = useRef<Record<string, number>>({});
  const pathOf = useCallback((id: string) => `${base}/${encodeURIComponent(id)}`, [base]);

  useEffect(() => {
    let live = true;
    void requestJson(base, list).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", items: result.data });
      else if (result.error.status === unavailable) setState({ status: "unavailable" });
      else setState({ status: "failed", message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, [base, list, unavailable]);

  /** Puts `row` in the list (replacing the one with its id), kept in order. */
  const put = useCallback(
    (row: T) =>
      setState((current) =>
        current.status === "ready"
          ? { ...current, items: [...current.items.filter((r) => r.id !== row.id), row].sort(order) }
          : current,
      ),
    [order],
  );

  const setRowError = useCallback((id: string, message: string | null) => {
    setRowErrors(({ [id]: _, ...rest }) => (message ? { ...rest, [id]: message } : rest));
  }, []);

  /** Marks a row busy while `run` runs (a test). */
  const whileBusy = useCallback(async <R>(id: string, run: () => Promise<R>): Promise<R> => {
    setBusy((b) => ({ ...b, [id]: true }));
    try {
      return await run();
    } finally {
      setBusy(({ [id]: _, ...rest }) => rest);
    }
  }, []);

  /** POST; on success the new row is listed. The caller shows a failure's fields. */
  const create = useCallback(
    async (input: Create): Promise<ApiResult<T>> => {
      const result = await requestJson(base, item, "POST", input);
      if (result.ok) {
        put(result.data);
        onChange?.();
      }
      return result;
    },
    [base, item, put, onChange],
  );

  /**
   * PATCH; `optimistic` is shown at once and undone if the server says no. A failure is shown on the
   * row unless `quiet` (a form that shows it by its fields itself).
   */
  const update = useCallback(
    async (row: T, patch: Patch, opts: { optimistic?: T; quiet?: boolean } = {}): Promise<ApiResult<T>> => {
      const request = (latest.current[row.id] ?? 0) + 1;
      latest.current[row.id] = request;
      if (opts.optimistic) put(opts.optimistic);
      setRowError(row.id, null);
      const result = await requestJson(pathOf(row.id), item, "PATCH", patch);
      if (latest.current[row.id] !== request) return result;
      if (result.ok) {
        put(result.data);
        onChange?.();
      } else {
        if (opts.optimistic) put(row);
        if (!opts.quiet) setRowError(row.id, `Could not save: ${result.error.message}`);
      }
      return result;
    },
    [item, pathOf, put, setRowError, onChange],
  );

  const remove = useCallback(
    async (id: string): Promise<boolean> => {
      const result = await requestEmpty(pathOf(id), "DELETE");
      if (!result.ok && result.error.status !== 404) {
        setRowError(id, `Could not delete: ${result.error.message}`);
        return false;
      }
      setState((current) =>
        current.status === "ready" ? { ...current, items: current.items.filter((r) => r.id !== id) } : current,
      );
      setRowError(id, null);
      onChange?.();
      return true;
    },
    [pathOf, setRowError, onChange],
  );

  return { state, busy, rowErrors, setRowError, put, pathOf, whileBusy, create, update, remove };
}

/** "Could not test: …": a row's error line for a request that failed. */
export const couldNot = (what: string, error: ApiError) => `Could not ${what}: ${error.message}`;
