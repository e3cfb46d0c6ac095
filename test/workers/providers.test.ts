// Settings → Models over HTTP (issue 28): the user's own providers with write-only keys sealed at rest,
// the outbound URL policy, ownership, USER_PROVIDERS=off, the model list and default, a conversation's
// model, and which model a turn gets (turnModel) — against the fake OpenAI server on 127.0.0.1.
import { env } from "cloudflare:workers";
import { generateText } from "ai";
import { describe, expect, inject, it } from "vitest";
import { languageModel } from "../../agent/llm/model";
import { getProviderRow } from "../../d1/providers";
import { loadTurnSettings } from "../../d1/user-settings";
import { turnModel } from "../../durable-objects/conversation/turn/turn-model";
import {
  type Conversation,
  MAX_PROVIDERS,
  type ModelListResponse,
  type Provider,
  type ProviderTest,
} from "../../protocol";
import { app } from "../../worker/app";
import { api, createConversation, ORIGIN, type Session, signup } from "./helpers";

const llmUrl = `${inject("llmUrl")}/v1`;
const KEY = "sk-provider-test-key-3f9a1c77e2";

/** Every answer's text, to search for the key in. */
const answers: string[] = [];

async function call(session: Session, path: string, init: RequestInit & { json?: unknown } = {}) {
  const res = await api(path, { ...init, headers: session.headers });
  answers.push(await res.clone().text());
  return res;
}

async function add(session: Session, body: Record<string, unknown>): Promise<Provider> {
  const res = await call(session, "/api/providers", { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const twoModels = [
  { id: "m1", context_window: 32_000 },
  { id: "m2", context_window: 16_000, max_output_tokens: 2_000 },
];

/** The Worker under another environment (deployed without loopback, or with user providers off). */
function underEnv(
  overrides: Partial<Env>,
  session: Session,
  path: string,
  init: RequestInit & { json?: unknown } = {},
) {
  const headers = new Headers(session.headers);
  if (init.json !== undefined) headers.set("Content-Type", "application/json");
  const body = init.json !== undefined ? JSON.stringify(init.json) : undefined;
  return app.request(`${ORIGIN}${path}`, { ...init, headers, body }, { ...env, ...overrides });
}

describe("providers: saving, reading, testing", () => {
  it("adds a provider by its URL and key alone: the style and models come from the server; the key never comes back", async () => {
    const s = await signup();
    const provider = await add(s, { name: "Local", base_url: llmUrl, api_key: KEY });
    expect(provider).toMatchObject({
      name: "Local",
      base_url: llmUrl,
      style: "chat",
      has_key: true,
      // The fake lists fake-model without a window: a guess the user can correct.
      models: [{ id: "fake-model", context_window: 8192 }],
      last_error: null,
    });
    expect(provider.checked_at).not.toBeNull();

    const list = (await (await call(s, "/api/providers")).json()) as Provider[];
    expect(list.map((p) => p.id)).toEqual([provider.id]);
    const one = (await (await call(s, `/api/providers/${provider.id}`)).json()) as Provider;
    expect(one.name).toBe("Local");

    const patched = await call(s, `/api/providers/${provider.id}`, {
      method: "PATCH",
      json: { name: "Renamed", models: twoModels },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: "Renamed", models: twoModels, has_key: true });

    const tested = await call(s, `/api/providers/${provider.id}/test`, { method: "POST" });
    expect(tested.status).toBe(200);
    const result = (await tested.json()) as ProviderTest;
    expect(result).toMatchObject({ ok: true, style: "chat", models: [{ id: "fake-model" }] });
    expect(result.provider.last_error).toBeNull();

    // Neither an answer nor the row holds the key; the row holds it sealed.
    for (const text of answers) expect(text).not.toContain(KEY);
    const row = await getProviderRow(s.db, s.user.id, provider.id);
    expect(row?.sealedKey).toMatch(/^v1\./);
    const raw = await s.db.prepare("SELECT * FROM providers WHERE id = ?").bind(provider.id).all();
    expect(JSON.stringify(raw.results)).not.toContain(KEY);
    expect(atob(row?.sealedKey?.split(".")[2] ?? "")).not.toContain(KEY);

    const removed = await call(s, `/api/providers/${provider.id}`, { method: "PATCH", json: { api_key: null } });
    expect(((await removed.json()) as Provider).has_key).toBe(false);
    expect((await call(s, `/api/providers/${provider.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(s, `/api/providers/${provider.id}`)).status).toBe(404);
  });

  it("saves a provider whose server failed the test, with what to fix", async () => {
    const s = await signup();
    const provider = await add(s, { name: "Wrong path", base_url: `${llmUrl}/nowhere`, api_key: "k" });
    expect(provider.models).toEqual([]);
    expect(provider.last_error).toMatch(/lists no models: add a model by its name/);
    const res = await call(s, `/api/providers/${provider.id}/test`, { method: "POST" });
    expect(((await res.json()) as ProviderTest).ok).toBe(false);
  });

  it("keeps the style and models the user gave without calling the server", async () => {
    const s = await signup();
    const provider = await add(s, {
      name: "Elsewhere",
      base_url: "https://api.example.com/v1",
      style: "responses",
      models: twoModels,
    });
    expect(provider).toMatchObject({ style: "responses", models: twoModels, has_key: false, checked_at: null });
  });
});

describe("providers: what is refused", () => {
  it("answers 404 for another user's provider, and lets no one else pick its models", async () => {
    const owner = await signup();
    const provider = await add(owner, {
      name: "Mine",
      base_url: llmUrl,
      api_key: KEY,
      style: "chat",
      models: twoModels,
    });
    const other = await signup();
    for (const [method, path, json] of [
      ["GET", `/api/providers/${provider.id}`, undefined],
      ["PATCH", `/api/providers/${provider.id}`, { name: "Stolen" }],
      ["DELETE", `/api/providers/${provider.id}`, undefined],
      ["POST", `/api/providers/${provider.id}/test`, undefined],
    ] as const) {
      const res = await call(other, path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    expect((await (await call(other, "/api/providers")).json()) as Provider[]).toEqual([]);
    const ref = { provider_id: provider.id, model: "m1" };
    const setDefault = await call(other, "/api/models/default", { method: "PUT", json: { model: ref } });
    expect(setDefault.status).toBe(400);
    expect(((await setDefault.json()) as { error: { fields: Record<string, string> } }).error.fields.model).toMatch(
      /not one of your models/,
    );
    const conversation = await createConversation(other);
    const patch = await call(other, `/api/conversations/${conversation.id}`, { method: "PATCH", json: { model: ref } });
    expect(patch.status).toBe(400);
    expect(Object.keys(((await patch.json()) as { error: { fields: object } }).error.fields)).toEqual(["model"]);
    // Untouched by any of it.
    expect((await getProviderRow(owner.db, owner.user.id, provider.id))?.name).toBe("Mine");
  });

  it("refuses private addresses always, and loopback where the Worker is deployed", async () => {
    const s = await signup();
    for (const url of ["https://10.0.0.8/v1", "https://169.254.169.254/latest", "https://printer.local/v1"]) {
      const res = await call(s, "/api/providers", { method: "POST", json: { name: "x", base_url: url } });
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.fields.base_url).toMatch(/private, link-local or reserved/);
    }
    const deployed = await underEnv({ ALLOW_LOOPBACK: undefined, MCP_ALLOW_LOOPBACK: undefined }, s, "/api/providers", {
      method: "POST",
      json: { name: "local", base_url: llmUrl },
    });
    expect(deployed.status).toBe(400);
    const body = (await deployed.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields.base_url).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect((await (await call(s, "/api/providers")).json()) as Provider[]).toEqual([]);
  });

  it("answers 401 without a session", async () => {
    for (const path of ["/api/providers", "/api/models"]) expect((await api(path)).status, path).toBe(401);
  });

  it("refuses a bad body by field, and an eleventh provider", async () => {
    const s = await signup();
    for (const [body, field] of [
      [{ name: "x", base_url: "not a url" }, "base_url"],
      [{ name: "", base_url: "https://api.example.com/v1" }, "name"],
      [{ name: "x", base_url: "https://api.example.com/v1", style: "soap" }, "style"],
      [
        { name: "x", base_url: "https://api.example.com/v1", models: [{ id: "m", context_window: 10 }] },
        "models.0.context_window",
      ],
      [
        {
          name: "x",
          base_url: "https://api.example.com/v1",
          models: [{ id: "m", context_window: 8000, prices: { input: -1, cached_input: 0, output: 1 } }],
        },
        "models.0.prices.input",
      ],
      [{ name: "x", base_url: "https://api.example.com/v1", key: "k" }, "key"],
    ] as const) {
      const res = await call(s, "/api/providers", { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(((await res.json()) as { error: { fields: object } }).error.fields)).toEqual([field]);
    }
    const full = { base_url: "https://api.example.com/v1", style: "chat", models: twoModels };
    for (let i = 0; i < MAX_PROVIDERS; i++) await add(s, { name: `p${i}`, ...full });
    const eleventh = await call(s, "/api/providers", { method: "POST", json: { name: "one more", ...full } });
    expect(eleventh.status).toBe(409);
    expect(((await eleventh.json()) as { error: { code: string } }).error.code).toBe("conflict");
  });

  it("refuses every provider route, and lists only the operator's model, when USER_PROVIDERS is off", async () => {
    const s = await signup();
    const provider = await add(s, { name: "P", base_url: llmUrl, style: "chat", models: twoModels });
    const off = { USER_PROVIDERS: "off" };
    for (const [method, path] of [
      ["GET", "/api/providers"],
      ["POST", "/api/providers"],
      ["PATCH", `/api/providers/${provider.id}`],
      ["DELETE", `/api/providers/${provider.id}`],
      ["POST", `/api/providers/${provider.id}/test`],
    ] as const) {
      const res = await underEnv(off, s, path, { method, json: method === "GET" ? undefined : { name: "x" } });
      expect(res.status, `${method} ${path}`).toBe(403);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("forbidden");
      expect(error.message).toMatch(/operator .* turned off/);
    }
    const list = (await (await underEnv(off, s, "/api/models")).json()) as ModelListResponse;
    expect(list.user_providers).toBe(false);
    expect(list.models.map((m) => m.provider_id)).toEqual(["default"]);
    const put = await underEnv(off, s, "/api/models/default", {
      method: "PUT",
      json: { model: { provider_id: provider.id, model: "m1" } },
    });
    expect(put.status).toBe(400);
  });
});

describe("models: the list, the default, a conversation's model", () => {
  it("lists the operator's model first, then the user's; saves a default; falls back when its provider goes", async () => {
    const s = await signup();
    const before = (await (await call(s, "/api/models")).json()) as ModelListResponse;
    expect(before).toMatchObject({
      default: { provider_id: "default", model: "fake-model" },
      user_providers: true,
      models: [{ provider_id: "default", model: "fake-model", style: "chat" }],
    });
    const provider = await add(s, { name: "P", base_url: llmUrl, style: "chat", models: twoModels });
    const listed = (await (await call(s, "/api/models")).json()) as ModelListResponse;
    expect(listed.models.map((m) => `${m.provider_id === "default" ? "default" : m.provider_name}/${m.model}`)).toEqual(
      ["default/fake-model", "P/m1", "P/m2"],
    );
    expect(listed.models[2]).toMatchObject({ context_window: 16_000, max_output_tokens: 2_000, style: "chat" });
    expect(listed.models[1]?.max_output_tokens).toBe(8_000); // a quarter of the window when unset

    const ref = { provider_id: provider.id, model: "m2" };
    const put = await call(s, "/api/models/default", { method: "PUT", json: { model: ref } });
    expect(put.status).toBe(200);
    expect(((await put.json()) as ModelListResponse).default).toEqual(ref);
    const unknown = await call(s, "/api/models/default", {
      method: "PUT",
      json: { model: { provider_id: provider.id, model: "m9" } },
    });
    expect(unknown.status).toBe(400);
    expect(((await (await call(s, "/api/models")).json()) as ModelListResponse).default).toEqual(ref);

    await call(s, `/api/providers/${provider.id}`, { method: "DELETE" });
    const after = (await (await call(s, "/api/models")).json()) as ModelListResponse;
    expect(after.default).toEqual({ provider_id: "default", model: "fake-model" });
    expect(after.models).toHaveLength(1);
  });

  it("sets, shows and clears a conversation's model; a model the user lacks changes nothing", async () => {
    const s = await signup();
    const provider = await add(s, { name: "P", base_url: llmUrl, style: "chat", models: twoModels });
    const conversation = await createConversation(s, "Chat");
    const ref = { provider_id: provider.id, model: "m1" };
    const set = await call(s, `/api/conversations/${conversation.id}`, { method: "PATCH", json: { model: ref } });
    expect(set.status).toBe(200);
    expect(((await set.json()) as Conversation).model).toEqual(ref);
    expect(((await (await call(s, `/api/conversations/${conversation.id}`)).json()) as Conversation).model).toEqual(
      ref,
    );
    const list = (await (await call(s, "/api/conversations")).json()) as Conversation[];
    expect(list.find((c) => c.id === conversation.id)?.model).toEqual(ref);

    const bad = await call(s, `/api/conversations/${conversation.id}`, {
      method: "PATCH",
      json: { title: "Renamed", model: { provider_id: "default", model: "gpt-nope" } },
    });
    expect(bad.status).toBe(400);
    const kept = (await (await call(s, `/api/conversations/${conversation.id}`)).json()) as Conversation;
    expect(kept).toMatchObject({ title: "Chat", model: ref });

    const cleared = await call(s, `/api/conversations/${conversation.id}`, { method: "PATCH", json: { model: null } });
    expect((await cleared.json()) as Conversation).not.toHaveProperty("model");

    await call(s, `/api/conversations/${conversation.id}`, { method: "PATCH", json: { model: ref } });
    await call(s, `/api/providers/${provider.id}`, { method: "DELETE" });
    const orphan = (await (await call(s, `/api/conversations/${conversation.id}`)).json()) as Conversation;
    expect(orphan).not.toHaveProperty("model");
  });
});

describe("turnModel: which model answers a turn", () => {
  it("picks the conversation's model, else the user's default, else the operator's; opens the key", async () => {
    const s = await signup();
    const provider = await add(s, { name: "P", base_url: llmUrl, api_key: KEY, style: "chat", models: twoModels });
    const chosen = await createConversation(s);
    const plain = await createConversation(s);
    await call(s, `/api/conversations/${chosen.id}`, {
      method: "PATCH",
      json: { model: { provider_id: provider.id, model: "m2" } },
    });
    const picked = async (conversationId: string, overrides: Partial<Env> = {}) =>
      turnModel({ ...env, ...overrides }, await loadTurnSettings(s.db, s.user.id, conversationId));

    // No default yet: the operator's model for the plain conversation.
    expect(await picked(plain.id)).toMatchObject({ providerId: "default", model: "fake-model" });
    const own = await picked(chosen.id);
    expect(own).toMatchObject({
      providerId: provider.id,
      providerName: "P",
      provider: "openai",
      model: "m2",
      apiKey: KEY,
      baseURL: llmUrl,
      style: "chat",
      contextWindow: 16_000,
      maxOutputTokens: 2_000,
    });
    // Its requests go through the outbound policy's fetch, and reach the server.
    if (own.provider !== "openai") throw new Error("expected the provider's settings");
    expect(own.fetch).toBeTypeOf("function");
    const answer = await generateText({ model: languageModel(own), prompt: "hello provider" });
    expect(answer.text).toBe("Echo: hello provider");

    await call(s, "/api/models/default", { method: "PUT", json: { model: { provider_id: provider.id, model: "m1" } } });
    expect(await picked(plain.id)).toMatchObject({ providerId: provider.id, model: "m1" });
    expect(await picked(chosen.id)).toMatchObject({ model: "m2" });
    // Operator off: always the operator's.
    expect(await picked(chosen.id, { USER_PROVIDERS: "off" })).toMatchObject({ providerId: "default" });

    // A model removed from the provider falls through to the default; the provider deleted, to the operator's.
    await call(s, `/api/providers/${provider.id}`, { method: "PATCH", json: { models: [twoModels[0]] } });
    expect(await picked(chosen.id)).toMatchObject({ providerId: provider.id, model: "m1" });
    await call(s, `/api/providers/${provider.id}`, { method: "DELETE" });
    expect(await picked(chosen.id)).toMatchObject({ providerId: "default", model: "fake-model" });
    expect(await picked(plain.id)).toMatchObject({ providerId: "default", model: "fake-model" });
  });
});
