// Settings → Models over HTTP: the user's own providers (add, read, change, delete, test) and the models
// they can pick (GET /api/models, their default). The key goes in and never comes out; a URL the Worker
// may not fetch (outbound/policy.ts) is refused when it is saved, and again on every request made to it.
// Adding a provider without its style or models asks the server once (agent/llm/probe.ts).

import { type Context, Hono } from "hono";
import { availableModels, findModel, operatorRef } from "../../agent/llm/catalog";
import { llmSettings, userProvidersAllowed } from "../../agent/llm/config";
import { probeProvider } from "../../agent/llm/probe";
import { SecretsKeyMissing } from "../../core/secret-box";
import { database, nowIso } from "../../d1/client";
import {
  countProviders,
  createProvider,
  defaultModelQuery,
  deleteProvider,
  getProviderRow,
  listProviders,
  openProviderKey,
  type ProviderRow,
  parseModelRef,
  providersQuery,
  saveDefaultModel,
  toProvider,
  updateProvider,
} from "../../d1/providers";
import { type Placement, shardDb } from "../../d1/shards";
import { guardedFetch, outboundPolicy, refusedUrl } from "../../outbound/policy";
import {
  DefaultModelSchema,
  type DiscoveredModel,
  MAX_PROVIDER_MODELS,
  MAX_PROVIDERS,
  type ModelListResponse,
  type ModelRef,
  type Provider,
  ProviderCreateSchema,
  type ProviderModel,
  ProviderPatchSchema,
  type ProviderTest,
  prefilledWindow,
} from "../../protocol";
import { ApiError, invalid, notFound } from "../errors";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readJson } from "../validate";

export const providerRoutes = new Hono<AppEnv>();
export const modelRoutes = new Hono<AppEnv>();

type Ctx = Context<AppEnv>;

// Every provider route is refused while the operator has user providers off.
providerRoutes.use(async (c, next) => {
  if (!userProvidersAllowed(c.env))
    throw new ApiError(403, "forbidden", "The operator of this app turned off adding your own model providers");
  await next();
});

function refuseUrl(c: Ctx, url: string): void {
  const refused = refusedUrl(url, outboundPolicy(c.env));
  if (refused) throw invalid(`base_url: ${refused}`, { base_url: refused });
}

/** Sealing needs the Worker's SECRETS_KEY; without it a key is refused, not stored in clear. */
async function sealing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SecretsKeyMissing) throw new ApiError(500, "internal", error.message);
    throw error;
  }
}

async function ownRow(c: Ctx): Promise<ProviderRow> {
  const row = await getProviderRow(c.var.shard, currentUser(c).id, c.req.param("id") ?? "");
  if (!row) throw notFound("No such provider");
  return row;
}

const tooMany = () => new ApiError(409, "conflict", `At most ${MAX_PROVIDERS} providers per user; delete one first`);

/** What the server listed, as models to start from: its window where it said, else a guess. */
const prefilled = (found: DiscoveredModel[]): ProviderModel[] =>
  found.slice(0, MAX_PROVIDER_MODELS).map((m) => ({
    id: m.id.slice(0, 200),
    context_window: prefilledWindow(m.context_window),
    ...(m.image_input ? { image_input: true } : {}),
  }));

const probeFetch = (c: Ctx) => guardedFetch(outboundPolicy(c.env));

providerRoutes.get("/", async (c) => c.json(await listProviders(c.var.shard, currentUser(c).id)));

providerRoutes.post("/", async (c) => {
  const input = await readJson(c, ProviderCreateSchema);
  refuseUrl(c, input.base_url);
  const userId = currentUser(c).id;
  // Checked before the probe too, so an 11th provider costs no call to its server.
  if ((await countProviders(c.var.shard, userId)) >= MAX_PROVIDERS) throw tooMany();
  let style = input.style ?? "chat";
  let models = input.models ?? [];
  let checked: { checkedAt: string; lastError: string | null } | undefined;
  if (!input.style || !input.models) {
    const found = await probeProvider(
      {
        baseUrl: input.base_url,
        apiKey: input.api_key,
        style: input.style,
        model: input.models?.[0]?.id,
        name: input.name,
      },
      probeFetch(c),
      { signal: c.req.raw.signal },
    );
    style = input.style ?? found.style ?? "chat";
    models = input.models ?? prefilled(found.models);
    // A failed probe still saves the provider: the user fixes the key or URL next.
    checked = { checkedAt: nowIso(), lastError: found.ok ? null : (found.error ?? "The test failed") };
  }
  const provider = await sealing(() =>
    createProvider(
      c.var.shard,
      userId,
      { name: input.name, baseUrl: input.base_url, apiKey: input.api_key, style, models, ...checked },
      c.env.SECRETS_KEY,
    ),
  );
  if (!provider) throw tooMany();
  return c.json(provider, 201);
});

providerRoutes.get("/:id", async (c) => c.json(toProvider(await ownRow(c))));

providerRoutes.patch("/:id", async (c) => {
  const patch = await readJson(c, ProviderPatchSchema);
  const row = await ownRow(c);
  const moved = patch.base_url !== undefined && patch.base_url !== row.baseUrl;
  if (patch.base_url !== undefined) refuseUrl(c, patch.base_url);
  // A stolen session must not send the stored key to a host of its choosing: a new origin needs it again.
  if (moved && row.sealedKey && patch.api_key === undefined && originOf(patch.base_url) !== originOf(row.baseUrl)) {
    const problem = "give the API key again (or null for none) when the URL moves to another host";
    throw invalid(`api_key: ${problem}`, { api_key: problem });
  }
  const provider = await sealing(() =>
    updateProvider(
      c.var.shard,
      row,
      {
        name: patch.name,
        baseUrl: patch.base_url,
        apiKey: patch.api_key,
        style: patch.style,
        models: patch.models,
        // What the old URL answered says nothing about the new one.
        ...(moved ? { checkedAt: null, lastError: null } : {}),
      },
      c.env.SECRETS_KEY,
    ),
  );
  return c.json(provider);
});

providerRoutes.delete("/:id", async (c) => {
  if (!(await deleteProvider(c.var.shard, currentUser(c).id, c.req.param("id")))) throw notFound("No such provider");
  return c.body(null, 204);
});

providerRoutes.post("/:id/test", async (c) => {
  const row = await ownRow(c);
  const provider = toProvider(row);
  let apiKey: string | undefined;
  try {
    apiKey = await openProviderKey(row, c.env.SECRETS_KEY);
  } catch {
    const error = "The stored API key cannot be opened (the server's secrets key changed): enter it again.";
    const saved = await updateProvider(c.var.shard, row, { checkedAt: nowIso(), lastError: error });
    return c.json({ ok: false, models: [], error, provider: saved } satisfies ProviderTest);
  }
  const found = await probeProvider(
    { baseUrl: row.baseUrl, apiKey, prefer: row.style, model: provider.models[0]?.id, name: row.name },
    probeFetch(c),
    { signal: c.req.raw.signal },
  );
  const saved = await updateProvider(c.var.shard, row, {
    checkedAt: nowIso(),
    lastError: found.ok ? null : (found.error ?? "The test failed"),
    // The server answered in the other style: that is the one that works.
    ...(found.ok && found.style && found.style !== row.style ? { style: found.style } : {}),
  });
  const result: ProviderTest = {
    ok: found.ok,
    ...(found.style ? { style: found.style } : {}),
    models: found.models,
    ...(found.error ? { error: found.error } : {}),
    provider: saved,
  };
  return c.json(result);
});

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The user's providers (none while the operator has them off) and saved default, in one round trip. */
export async function modelChoices(
  env: Env,
  { userId, shard: index }: Placement,
): Promise<{ providers: Provider[]; saved?: ModelRef }> {
  if (!userProvidersAllowed(env)) return { providers: [] };
  const shard = shardDb(env, index);
  const [rows, settings] = await database(shard).batch([
    providersQuery(shard, userId),
    defaultModelQuery(shard, userId),
  ]);
  const saved = parseModelRef(settings[0]?.defaultModel);
  return { providers: rows.map(toProvider), ...(saved ? { saved } : {}) };
}

/** Whether the user has the model a ref names: else 400 naming `field`. */
export async function ownModel(env: Env, owner: Placement, ref: ModelRef, field: string): Promise<ModelRef> {
  const { providers } = await modelChoices(env, owner);
  const found = findModel(llmSettings(env), providers, ref);
  if (!found) {
    const problem = "not one of your models (GET /api/models lists them)";
    throw invalid(`${field}: ${problem}`, { [field]: problem });
  }
  return found.ref;
}

async function modelList(env: Env, owner: Placement): Promise<ModelListResponse> {
  const operator = llmSettings(env);
  const { providers, saved } = await modelChoices(env, owner);
  const chosen = findModel(operator, providers, saved);
  return {
    models: availableModels(operator, providers),
    default: chosen?.ref ?? operatorRef(operator),
    user_providers: userProvidersAllowed(env),
  };
}

modelRoutes.get("/", async (c) => c.json(await modelList(c.env, ownerOf(c))));

modelRoutes.put("/default", async (c) => {
  const { model } = await readJson(c, DefaultModelSchema);
  const userId = currentUser(c).id;
  await saveDefaultModel(c.var.shard, userId, await ownModel(c.env, ownerOf(c), model, "model"));
  return c.json(await modelList(c.env, ownerOf(c)));
});
