// The user's web tools (docs/protocol.md "The web"): GET/PUT /api/settings/web. The switches, and their
// own search provider whose key is sealed and never sent back. A PUT with any bad field saves nothing.
import { Hono } from "hono";
import { SecretsKeyMissing } from "../../core/secret-box";
import { keptForProvider, loadUserWeb, saveUserWeb, type UserWeb } from "../../d1/web-settings";
import { operatorFetches, operatorSearch } from "../../durable-objects/conversation/web/web-plan";
import { outboundPolicy, refusedUrl } from "../../outbound/policy";
import {
  providerNeedsKey,
  SEARCH_PROVIDER_NAMES,
  type WebSettings,
  type WebSettingsPatch,
  WebSettingsPatchSchema,
} from "../../protocol";
import { ApiError, invalid } from "../errors";
import { type AppEnv, currentUser } from "../middleware/identity";
import { readJson } from "../validate";

export const webSettingsRoutes = new Hono<AppEnv>();

function shown(env: Env, web: UserWeb): WebSettings {
  return {
    fetch: web.fetch,
    search: web.search,
    search_provider: web.provider ?? null,
    search_url: web.url ?? null,
    search_key_set: web.sealedKey !== undefined,
    operator: { fetch: operatorFetches(env), search_provider: operatorSearch(env)?.provider ?? null },
  };
}

/** What the patch would leave unusable, by field: a provider without its key or instance, a URL the Worker may not fetch. */
function problems(env: Env, patch: WebSettingsPatch, saved: UserWeb): Record<string, string> | undefined {
  const provider = patch.search_provider === undefined ? saved.provider : (patch.search_provider ?? undefined);
  const url = patch.search_url === undefined ? saved.url : patch.search_url || undefined;
  const hasKey = patch.search_key === undefined ? saved.sealedKey !== undefined : patch.search_key !== null;
  const fields: Record<string, string> = {};
  if (url) {
    const refused = refusedUrl(url, outboundPolicy(env));
    if (refused) fields.search_url = refused;
  }
  if (provider && providerNeedsKey(provider) && !hasKey)
    fields.search_key = `${SEARCH_PROVIDER_NAMES[provider]} needs an API key`;
  if (provider === "searxng" && !url) fields.search_url = "SearXNG needs the URL of its instance";
  return Object.keys(fields).length ? fields : undefined;
}

webSettingsRoutes.get("/", async (c) => c.json(shown(c.env, await loadUserWeb(c.var.shard, currentUser(c).id))));

webSettingsRoutes.put("/", async (c) => {
  const patch = await readJson(c, WebSettingsPatchSchema);
  const userId = currentUser(c).id;
  // Judged against what the patch keeps: another provider needs its own URL and key.
  const saved = keptForProvider(await loadUserWeb(c.var.shard, userId), patch);
  const bad = problems(c.env, patch, saved);
  if (bad)
    throw invalid(
      Object.entries(bad)
        .map(([field, why]) => `${field}: ${why}`)
        .join("; "),
      bad,
    );
  try {
    return c.json(shown(c.env, await saveUserWeb(c.var.shard, c.env.SECRETS_KEY, userId, patch)));
  } catch (error) {
    if (error instanceof SecretsKeyMissing) throw new ApiError(500, "internal", error.message);
    throw error;
  }
});
