// The models the user can pick (GET /api/models): the operator's first, then each of their providers'
// models, and their default. One copy for the whole page, so the composer's picker, the Retry menu and
// Settings → Models agree: a change in Settings (a provider added, a default chosen) calls
// `refreshModels()` and every picker shows it.
import { useEffect, useState } from "preact/hooks";
import { type AvailableModel, type ModelListResponse, ModelListResponseSchema, type ModelRef } from "../../../protocol";
import { requestJson } from "./api";

export type ModelsState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; list: ModelListResponse };

let current: ModelsState = { status: "loading" };
let inFlight: Promise<void> | null = null;
const listeners = new Set<(state: ModelsState) => void>();

function publish(next: ModelsState): void {
  current = next;
  for (const listener of listeners) listener(next);
}

/** Asks the server again (after a change in Settings → Models); every picker follows. */
export function refreshModels(): Promise<void> {
  inFlight ??= requestJson("/api/models", ModelListResponseSchema).then((result) => {
    inFlight = null;
    if (result.ok) publish({ status: "ready", list: result.data });
    // A failed refresh keeps a list that was there: a picker that worked a moment ago still works.
    else if (current.status !== "ready") publish({ status: "failed", message: result.error.message });
  });
  return inFlight;
}

/** Puts a list the server answered (PUT /api/models/default answers one) without asking again. */
export function setModels(list: ModelListResponse): void {
  publish({ status: "ready", list });
}

/** Forgets the list (a sign-out: the next user has other providers). */
export function resetModels(): void {
  current = { status: "loading" };
}

export function useModels(): ModelsState {
  const [state, setState] = useState<ModelsState>(current);
  useEffect(() => {
    listeners.add(setState);
    setState(current);
    if (current.status !== "ready") void refreshModels();
    return () => {
      listeners.delete(setState);
    };
  }, []);
  return state;
}

export const sameModel = (a: ModelRef | null | undefined, b: ModelRef | null | undefined) =>
  !!a && !!b && a.provider_id === b.provider_id && a.model === b.model;

export const refOf = (model: AvailableModel): ModelRef => ({ provider_id: model.provider_id, model: model.model });

/** The model a ref names in the list, if the user still has it. */
export function findModel(models: readonly AvailableModel[], ref: ModelRef | null | undefined) {
  return ref ? models.find((m) => sameModel(refOf(m), ref)) : undefined;
}

/** A provider's models, as the pickers group them. */
export type ProviderGroup = { id: string; name: string; models: AvailableModel[] };

/** The models by provider, in the list's order (the operator's first). */
export function byProvider(models: readonly AvailableModel[]): ProviderGroup[] {
  const groups = new Map<string, ProviderGroup>();
  for (const model of models) {
    const group = groups.get(model.provider_id) ?? { id: model.provider_id, name: model.provider_name, models: [] };
    group.models.push(model);
    groups.set(model.provider_id, group);
  }
  return [...groups.values()];
}

/** How a model reads in a picker: "Demo model (offline)", or its name. */
export function modelLabel(model: Pick<AvailableModel, "model" | "demo">): string {
  return model.demo ? "Demo model (offline)" : model.model;
}

/** A stable key for a ref (a select's option value). */
export const refKey = (ref: ModelRef) => JSON.stringify([ref.provider_id, ref.model]);
export function parseRefKey(key: string): ModelRef | null {
  try {
    const [provider_id, model] = JSON.parse(key) as unknown[];
    return typeof provider_id === "string" && typeof model === "string" ? { provider_id, model } : null;
  } catch {
    return null;
  }
}

/**
 * The model the page in view answers with, for the header: the open conversation's (or the one picked
 * on home); null for the user's default; undefined while not known (a chat whose model has not loaded).
 */
let inView: ModelRef | null | undefined = null;
const inViewListeners = new Set<(ref: ModelRef | null | undefined) => void>();

function putInView(ref: ModelRef | null | undefined): void {
  inView = ref;
  for (const listener of inViewListeners) listener(ref);
}

/** Says which model the page answers with while it is shown (back to the user's default after). */
export function useShowModel(ref: ModelRef | null | undefined): void {
  useEffect(() => {
    putInView(ref);
    return () => putInView(null);
  }, [ref === undefined, ref?.provider_id, ref?.model]);
}

/** The model in view as the list describes it; null when the list failed; undefined until known. */
export function useModelInView(): AvailableModel | null | undefined {
  const models = useModels();
  const [ref, setRef] = useState(inView);
  useEffect(() => {
    inViewListeners.add(setRef);
    setRef(inView);
    return () => {
      inViewListeners.delete(setRef);
    };
  }, []);
  if (models.status === "failed") return null;
  if (ref === undefined || models.status === "loading") return undefined;
  const { models: all, default: fallback } = models.list;
  return findModel(all, ref) ?? findModel(all, fallback) ?? null;
}
