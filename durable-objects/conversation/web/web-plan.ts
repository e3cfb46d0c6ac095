// What a turn may do on the web (docs/protocol.md "The web"), read with its settings: page reading where
// neither the operator (WEB_FETCH=off) nor the user switched it off; search through the user's own
// provider (their key, never metered) or else the operator's (SEARCH_PROVIDER, counted in the quota).

import { limitsFor } from "../../../core/quota-rules";
import type { TurnSettingsRead } from "../../../d1/user-settings";
import { openUserSearchKey, type UserWeb } from "../../../d1/web-settings";
import { type SearchConfig, searchConfigFromEnv } from "../../../outbound/web-search";
import { providerNeedsKey, type QuotaLimits, type SearchProvider } from "../../../protocol";

export interface WebPlan {
  fetch: boolean;
  /** Absent: no search this turn. `quota`: the operator's provider, whose searches the user's quota counts. */
  search?: { config: SearchConfig; quota?: QuotaLimits };
  searchesPerTurn: number;
}

/** Whether the operator lets agents read pages at all. */
export const operatorFetches = (env: Pick<Env, "WEB_FETCH">) => env.WEB_FETCH?.toLowerCase() !== "off";

/** The operator's provider, or undefined (none set, or set wrongly: then said in the log each time it is read). */
export function operatorSearch(env: Env): SearchConfig | undefined {
  const config = searchConfigFromEnv(env);
  if (config && "error" in config) {
    console.warn(`web search is off: ${config.error}`);
    return undefined;
  }
  return config;
}

/** Whether a turn of this user may read pages: neither the operator nor the user switched it off. */
export const readsPages = (env: Pick<Env, "WEB_FETCH">, web: Pick<UserWeb, "fetch">) =>
  operatorFetches(env) && web.fetch;

export async function webPlan(env: Env, userId: string, loaded: TurnSettingsRead): Promise<WebPlan> {
  const { web } = loaded;
  return {
    fetch: readsPages(env, web),
    searchesPerTurn: loaded.config.webSearchesPerTurn,
    ...(web.search ? await searchPlan(env, userId, loaded) : {}),
  };
}

async function searchPlan(env: Env, userId: string, loaded: TurnSettingsRead): Promise<Pick<WebPlan, "search">> {
  const { provider, url, sealedKey } = loaded.web;
  if (provider) {
    const key = sealedKey ? await openUserKey(env, userId, sealedKey) : undefined;
    return usable(provider, url, key) ? { search: { config: { provider, url, key } } } : {};
  }
  const operator = operatorSearch(env);
  return operator ? { search: { config: operator, quota: limitsFor(env, loaded.account.quotaOverride) } } : {};
}

/** A key that no longer opens (SECRETS_KEY changed) is as good as none: the user saves it again. */
async function openUserKey(env: Env, userId: string, sealed: string): Promise<string | undefined> {
  try {
    return await openUserSearchKey(env.SECRETS_KEY, userId, sealed);
  } catch {
    return undefined;
  }
}

const usable = (provider: SearchProvider, url: string | undefined, key: string | undefined) =>
  providerNeedsKey(provider) ? key !== undefined : url !== undefined;
