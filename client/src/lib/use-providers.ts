// The user's own model providers (GET /api/providers) and what can be done to one: add (POST: the server
// tests it and lists its models), change (PATCH: API style, key, models), test (POST …/test) and delete;
// and the default model (PUT /api/models/default). Every change is also put into the page's model list
// (use-models.ts), so the composer's picker follows. Each provider row has its own busy flag, its own
// error line and the answer of its last test. Settings → Models uses all of it.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { z } from "zod";
import {
  ModelListResponseSchema,
  type ModelRef,
  type Provider,
  type ProviderCreate,
  type ProviderPatch,
  ProviderSchema,
  type ProviderTest,
  ProviderTestSchema,
} from "../../../protocol";
import { type ApiResult, requestEmpty, requestJson } from "./api";
import { refreshModels, setModels } from "./use-models";

export type ProvidersState =
  | { status: "loading" }
  /** The operator turned user providers off (USER_PROVIDERS=off: every route is 403). */
  | { status: "off" }
  | { status: "failed"; message: string }
  | { status: "ready"; providers: Provider[] };

const BASE = "/api/providers";
const ProviderListSchema = z.array(ProviderSchema);
const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
// The server's order (by name as stored, then age), kept as rows are added or renamed.
const byName = (a: Provider, b: Provider) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;

/** PUT /api/models/default; the answer is the page's new model list. */
export async function saveDefaultModel(model: ModelRef) {
  const result = await requestJson("/api/models/default", ModelListResponseSchema, "PUT", { model });
  if (result.ok) setModels(result.data);
  return result;
}

export function useProviders() {
  const [state, setState] = useState<ProvidersState>({ status: "loading" });
  const [testing, setTesting] = useState<Record<string, boolean>>({});
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const [tests, setTests] = useState<Record<string, ProviderTest>>({});
  // The latest PATCH per provider: an older answer arriving late must not undo a newer change.
  const latest = useRef<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    void requestJson(BASE, ProviderListSchema).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", providers: result.data });
      else if (result.error.status === 403) setState({ status: "off" });
      else setState({ status: "failed", message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  /** Puts `provider` in the list (replacing the one with its id), kept in name order. */
  const put = useCallback((provider: Provider) => {
    setState((current) => {
      if (current.status !== "ready") return current;
      const others = current.providers.filter((p) => p.id !== provider.id);
      return { ...current, providers: [...others, provider].sort(byName) };
    });
  }, []);

  const setRowError = useCallback((id: string, message: string | null) => {
    setRowErrors(({ [id]: _, ...rest }) => (message ? { ...rest, [id]: message } : rest));
  }, []);

  /** POST …/test; the row shows what the server listed. A failed test is an answer too (`ok: false`). */
  const test = useCallback(
    async (provider: Provider): Promise<ApiResult<ProviderTest>> => {
      const id = provider.id;
      setTesting((t) => ({ ...t, [id]: true }));
      setTests(({ [id]: _, ...rest }) => rest);
      setRowError(id, null);
      const result = await requestJson(`${pathOf(id)}/test`, ProviderTestSchema, "POST");
      setTesting(({ [id]: _, ...rest }) => rest);
      if (result.ok) {
        put(result.data.provider);
        setTests((t) => ({ ...t, [id]: result.data }));
        // The server answered in the other style, and the provider was saved with it.
        if (result.data.provider.style !== provider.style) void refreshModels();
      } else setRowError(id, `Could not test: ${result.error.message}`);
      return result;
    },
    [put, setRowError],
  );

  /** POST (the server tests the provider and lists its models); the caller shows a failure's fields. */
  const create = useCallback(
    async (input: ProviderCreate): Promise<ApiResult<Provider>> => {
      const result = await requestJson(BASE, ProviderSchema, "POST", input);
      if (result.ok) {
        put(result.data);
        void refreshModels();
      }
      return result;
    },
    [put],
  );

  /**
   * PATCH; `optimistic` is shown at once and undone if the server says no. A failure is shown on the
   * row unless `quiet` (a form that shows it by its fields itself).
   */
  const update = useCallback(
    async (
      provider: Provider,
      patch: ProviderPatch,
      options: { optimistic?: Provider; quiet?: boolean } = {},
    ): Promise<ApiResult<Provider>> => {
      const request = (latest.current[provider.id] ?? 0) + 1;
      latest.current[provider.id] = request;
      if (options.optimistic) put(options.optimistic);
      setRowError(provider.id, null);
      const result = await requestJson(pathOf(provider.id), ProviderSchema, "PATCH", patch);
      if (latest.current[provider.id] !== request) return result;
      if (result.ok) {
        put(result.data);
        void refreshModels();
      } else {
        if (options.optimistic) put(provider);
        if (!options.quiet) setRowError(provider.id, `Could not save: ${result.error.message}`);
      }
      return result;
    },
    [put, setRowError],
  );

  const remove = useCallback(
    async (id: string): Promise<boolean> => {
      const result = await requestEmpty(pathOf(id), "DELETE");
      if (!result.ok && result.error.status !== 404) {
        setRowError(id, `Could not delete: ${result.error.message}`);
        return false;
      }
      setState((current) =>
        current.status === "ready" ? { ...current, providers: current.providers.filter((p) => p.id !== id) } : current,
      );
      setRowError(id, null);
      void refreshModels();
      return true;
    },
    [setRowError],
  );

  return { state, testing, rowErrors, tests, test, create, update, remove };
}
