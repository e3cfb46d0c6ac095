// A user's web tools in D1 (docs/protocol.md "The web"): whether the agent may read pages and search, and
// their own search provider, whose key is sealed (core/secret-box.ts, bound to the user) before it is
// written and never read back out. The settings route writes them; a turn reads them with its settings.
import { eq } from "drizzle-orm";
import { openSecret, sealSecret } from "../core/secret-box";
import { type SearchProvider, SearchProviderSchema, type WebSettingsPatch } from "../protocol";
import { database } from "./client";
import { webSettings } from "./schema";

export type WebSettingsRow = typeof webSettings.$inferSelect;

/** What a user who never saved anything has: both on, the operator's provider. */
export interface UserWeb {
  fetch: boolean;
  search: boolean;
  provider?: SearchProvider;
  url?: string;
  sealedKey?: string;
}

export const webSettingsQuery = (d1: D1Database, userId: string) =>
  database(d1).select().from(webSettings).where(eq(webSettings.userId, userId)).limit(1);

export function userWebOf(row: WebSettingsRow | undefined): UserWeb {
  const provider = SearchProviderSchema.safeParse(row?.provider);
  return {
    fetch: row?.fetch ?? true,
    search: row?.search ?? true,
    ...(provider.success ? { provider: provider.data } : {}),
    ...(row?.url ? { url: row.url } : {}),
    ...(row?.sealedKey ? { sealedKey: row.sealedKey } : {}),
  };
}

export async function loadUserWeb(d1: D1Database, userId: string): Promise<UserWeb> {
  return userWebOf((await webSettingsQuery(d1, userId))[0]);
}

const boundTo = (userId: string) => `web-search:${userId}`;

/** Saves a patch over what is saved (a key sealed first); `null` forgets a value. */
export async function saveUserWeb(
  d1: D1Database,
  secretsKey: string | undefined,
  userId: string,
  patch: WebSettingsPatch,
): Promise<UserWeb> {
  const current = keptForProvider(await loadUserWeb(d1, userId), patch);
  const sealedKey =
    patch.search_key === undefined
      ? current.sealedKey
      : patch.search_key === null
        ? undefined
        : await sealSecret(secretsKey, patch.search_key, boundTo(userId));
  const next: UserWeb = {
    fetch: patch.fetch ?? current.fetch,
    search: patch.search ?? current.search,
    ...pick("provider", patch.search_provider, current.provider),
    ...pick("url", patch.search_url, current.url),
    ...(sealedKey ? { sealedKey } : {}),
  };
  const values = {
    fetch: next.fetch,
    search: next.search,
    provider: next.provider ?? null,
    url: next.url ?? null,
    sealedKey: next.sealedKey ?? null,
    updatedAt: new Date().toISOString(),
  };
  await database(d1)
    .insert(webSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: webSettings.userId, set: values });
  return next;
}

/**
 * What of the saved provider a patch keeps: another provider starts without the saved URL and key, so
 * a key is never sent to the host saved for the one before (a Brave key to the user's old SearXNG).
 */
export function keptForProvider(saved: UserWeb, patch: Pick<WebSettingsPatch, "search_provider">): UserWeb {
  const provider = patch.search_provider;
  if (provider === undefined || provider === saved.provider) return saved;
  const { url: _url, sealedKey: _key, ...kept } = saved;
  return kept;
}

/** A patched value: the new one, none when forgotten (null or ""), else the saved one. */
function pick<K extends "provider" | "url", V>(key: K, patched: V | null | undefined, saved: V | undefined) {
  const value = patched === undefined ? saved : patched || undefined;
  return value === undefined || value === null ? {} : ({ [key]: value } as { [P in K]: V });
}

/** The user's own search key, opened for a search. */
export function openUserSearchKey(secretsKey: string | undefined, userId: string, sealed: string): Promise<string> {
  return openSecret(secretsKey, sealed, boundTo(userId));
}
