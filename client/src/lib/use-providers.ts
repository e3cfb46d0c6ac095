// The user's own model providers (GET /api/providers) and what can be done to one: add (POST: the server
// tests it and lists its models), change (PATCH: API style, key, models), test (POST …/test) and delete;
// and the default model (PUT /api/models/default). Every change is also put into the page's model list
// (use-models.ts), so the composer's picker follows. Each provider row has its own busy flag, its own
// error line (the list itself: use-row-list.ts) and the answer of its last test. Settings → Models uses
// all of it.
import { useCallback, useState } from "preact/hooks";
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
import { type ApiResult, requestJson } from "./api";
import { refreshModels, setModels } from "./use-models";
import { couldNot, useRowList } from "./use-row-list";

const BASE = "/api/providers";
const ProviderListSchema = z.array(ProviderSchema);
// The server's order (by name as stored, then age), kept as rows are added or renamed.
const byName = (a: Provider, b: Provider) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
const modelsChanged = () => void refreshModels();

/** PUT /api/models/default; the answer is the page's new model list. */
export async function saveDefaultModel(model: ModelRef) {
  const result = await requestJson("/api/models/default", ModelListResponseSchema, "PUT", { model });
  if (result.ok) setModels(result.data);
  return result;
}

export function useProviders() {
  // The operator turned user providers off (USER_PROVIDERS=off): every route is 403.
  const rows = useRowList<Provider, ProviderCreate, ProviderPatch>({
    base: BASE,
    list: ProviderListSchema,
    item: ProviderSchema,
    order: byName,
    unavailable: 403,
    onChange: modelsChanged,
  });
  const { put, pathOf, setRowError, whileBusy } = rows;
  const [tests, setTests] = useState<Record<string, ProviderTest>>({});

  /** POST …/test; the row shows what the server listed. A failed test is an answer too (`ok: false`). */
  const test = useCallback(
    async (provider: Provider): Promise<ApiResult<ProviderTest>> => {
      const id = provider.id;
      setTests(({ [id]: _, ...rest }) => rest);
      setRowError(id, null);
      const result = await whileBusy(id, () => requestJson(`${pathOf(id)}/test`, ProviderTestSchema, "POST"));
      if (result.ok) {
        put(result.data.provider);
        setTests((t) => ({ ...t, [id]: result.data }));
        // The server answered in the other style, and the provider was saved with it.
        if (result.data.provider.style !== provider.style) modelsChanged();
      } else setRowError(id, couldNot("test", result.error));
      return result;
    },
    [put, pathOf, setRowError, whileBusy],
  );

  const { state, busy: testing, rowErrors, create, update, remove } = rows;
  return { state, testing, rowErrors, tests, test, create, update, remove };
}
