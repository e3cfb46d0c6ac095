// The user's model providers in D1 (Settings → Models), shared by the /api/providers routes and the
// conversation object. Every statement is scoped by user id: another user's provider is indistinguishable
// from a missing one. The API key is sealed before it is written (core/secret-box.ts, bound to its user and
// row) and opened only to call the model (userProviderOf); no answer holds it. Also the two model choices
// a user makes: their default model (agent_settings.default_model) and a conversation's (conversations.model).
import { and, asc, eq } from "drizzle-orm";
import { openSecret, sealSecret } from "../core/secret-box";
import {
  type ApiStyle,
  MAX_PROVIDERS,
  type ModelRef,
  ModelRefSchema,
  type Provider,
  type ProviderModel,
  ProviderModelSchema,
} from "../protocol";
import { database, nowIso } from "./client";
import { agentSettings, conversations, providers } from "./schema";

export type ProviderRow = typeof providers.$inferSelect;

/** A sealed key opens only for its own user and row. */
const boundTo = (row: Pick<ProviderRow, "userId" | "id">) => `providers:${row.userId}:${row.id}`;

/** A stored model ref, or undefined when there is none or it no longer reads as one. */
export function parseModelRef(json: string | null | undefined): ModelRef | undefined {
  if (!json) return undefined;
  try {
    const ref = ModelRefSchema.safeParse(JSON.parse(json));
    return ref.success ? ref.data : undefined;
  } catch {
    return undefined;
  }
}

/** The stored models that still pass their schema (a bound may have changed since they were saved). */
function parseModels(json: string): ProviderModel[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((m) => {
      const model = ProviderModelSchema.safeParse(m);
      return model.success ? [model.data] : [];
    });
  } catch {
    return [];
  }
}

/** The provider as the API answers it: everything but the key. */
export function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    name: row.name,
    base_url: row.baseUrl,
    style: row.style,
    has_key: row.sealedKey !== null,
    models: parseModels(row.models),
    checked_at: row.checkedAt,
    last_error: row.lastError,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export const providersQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select()
    .from(providers)
    .where(eq(providers.userId, userId))
    .orderBy(asc(providers.name), asc(providers.createdAt));

export async function listProviderRows(d1: D1Database, userId: string): Promise<ProviderRow[]> {
  return providersQuery(d1, userId);
}

export async function listProviders(d1: D1Database, userId: string): Promise<Provider[]> {
  return (await providersQuery(d1, userId)).map(toProvider);
}

export async function getProviderRow(d1: D1Database, userId: string, id: string): Promise<ProviderRow | undefined> {
  const [row] = await database(d1)
    .select()
    .from(providers)
    .where(and(eq(providers.userId, userId), eq(providers.id, id)))
    .limit(1);
  return row;
}

/** What a new provider is saved with (the route has probed the server where the user left things out). */
export interface NewProvider {
  name: string;
  baseUrl: string;
  apiKey?: string;
  style: ApiStyle;
  models: ProviderModel[];
  checkedAt?: string | null;
  lastError?: string | null;
}

/** The new provider, or undefined when the user already has MAX_PROVIDERS. */
export async function createProvider(
  d1: D1Database,
  userId: string,
  input: NewProvider,
  secretsKey?: string,
): Promise<Provider | undefined> {
  const id = crypto.randomUUID();
  const sealedKey = input.apiKey ? await sealSecret(secretsKey, input.apiKey, boundTo({ userId, id })) : null;
  // One statement: the cap holds however many requests race (no count-then-insert gap).
  const inserted = await d1
    .prepare(
      `INSERT INTO providers (id, user_id, name, base_url, style, sealed_key, models, checked_at, last_error)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9
       WHERE (SELECT count(*) FROM providers WHERE user_id = ?2) < ?10
       RETURNING id`,
    )
    .bind(
      id,
      userId,
      input.name,
      input.baseUrl,
      input.style,
      sealedKey,
      JSON.stringify(input.models),
      input.checkedAt ?? null,
      input.lastError ?? null,
      MAX_PROVIDERS,
    )
    .first<{ id: string }>();
  if (!inserted) return undefined;
  const row = await getProviderRow(d1, userId, id);
  if (!row) throw new Error("provider insert returned no row");
  return toProvider(row);
}

export async function countProviders(d1: D1Database, userId: string): Promise<number> {
  const row = await d1
    .prepare("SELECT count(*) AS n FROM providers WHERE user_id = ?1")
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A change to a provider; `apiKey: null` removes the key. */
export interface ProviderChange {
  name?: string;
  baseUrl?: string;
  apiKey?: string | null;
  style?: ApiStyle;
  models?: ProviderModel[];
  checkedAt?: string | null;
  lastError?: string | null;
}

export async function updateProvider(
  d1: D1Database,
  row: ProviderRow,
  change: ProviderChange,
  secretsKey?: string,
): Promise<Provider> {
  const set: Partial<ProviderRow> = {
    ...(change.name !== undefined && { name: change.name }),
    ...(change.baseUrl !== undefined && { baseUrl: change.baseUrl }),
    ...(change.style !== undefined && { style: change.style }),
    ...(change.models !== undefined && { models: JSON.stringify(change.models) }),
    ...(change.checkedAt !== undefined && { checkedAt: change.checkedAt }),
    ...(change.lastError !== undefined && { lastError: change.lastError }),
    ...(change.apiKey === null && { sealedKey: null }),
    ...(typeof change.apiKey === "string" && { sealedKey: await sealSecret(secretsKey, change.apiKey, boundTo(row)) }),
    updatedAt: nowIso(),
  };
  const [updated] = await database(d1)
    .update(providers)
    .set(set)
    .where(and(eq(providers.userId, row.userId), eq(providers.id, row.id)))
    .returning();
  if (!updated) throw new Error("provider vanished during update");
  return toProvider(updated);
}

/**
 * Deletes the provider and, in the same transaction, the choices that pointed at it: those conversations
 * and the user's default fall back to the next choice (the default, then the operator's model).
 */
export async function deleteProvider(d1: D1Database, userId: string, id: string): Promise<boolean> {
  const [gone] = await d1.batch([
    d1.prepare("DELETE FROM providers WHERE user_id = ?1 AND id = ?2 RETURNING id").bind(userId, id),
    d1
      .prepare("UPDATE conversations SET model = NULL WHERE user_id = ?1 AND json_extract(model, '$.provider_id') = ?2")
      .bind(userId, id),
    d1
      .prepare(
        "UPDATE agent_settings SET default_model = NULL WHERE user_id = ?1 AND json_extract(default_model, '$.provider_id') = ?2",
      )
      .bind(userId, id),
  ]);
  return (gone?.results.length ?? 0) > 0;
}

/** The key, opened: only to call the model, never for an answer. Undefined when none is stored. */
export async function openProviderKey(row: ProviderRow, secretsKey?: string): Promise<string | undefined> {
  return row.sealedKey ? openSecret(secretsKey, row.sealedKey, boundTo(row)) : undefined;
}

/** What agent/llm/config.ts's providerLlm takes (its UserProvider), the key opened. */
export async function userProviderOf(row: ProviderRow, secretsKey?: string) {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.baseUrl,
    style: row.style,
    apiKey: await openProviderKey(row, secretsKey),
  };
}

export const defaultModelQuery = (d1: D1Database, userId: string) =>
  database(d1)
    .select({ defaultModel: agentSettings.defaultModel })
    .from(agentSettings)
    .where(eq(agentSettings.userId, userId))
    .limit(1);

/** The user's default model; null clears it (the operator's model again). */
export async function saveDefaultModel(d1: D1Database, userId: string, ref: ModelRef | null): Promise<void> {
  const defaultModel = ref ? JSON.stringify(ref) : null;
  await database(d1)
    .insert(agentSettings)
    .values({ userId, config: {}, defaultModel })
    .onConflictDoUpdate({ target: agentSettings.userId, set: { defaultModel } });
}

export const conversationModelQuery = (d1: D1Database, userId: string, conversationId: string) =>
  database(d1)
    .select({ model: conversations.model })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.id, conversationId)))
    .limit(1);

/** Sets (or, with null, clears) the model of the user's own conversation; false when it is not theirs. */
export async function setConversationModel(
  d1: D1Database,
  userId: string,
  conversationId: string,
  ref: ModelRef | null,
): Promise<boolean> {
  const rows = await database(d1)
    .update(conversations)
    .set({ model: ref ? JSON.stringify(ref) : null })
    .where(and(eq(conversations.userId, userId), eq(conversations.id, conversationId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}
