// Which model answers a turn: the conversation's, else the user's default, else the operator's (a choice
// whose provider or model is gone falls through to the next; with USER_PROVIDERS off, always the
// operator's). A user's provider gets its key opened here, and its requests go through the outbound policy
// (outbound/policy.ts): the URL was checked when it was saved and is checked again on every request.
import { chooseModel } from "../../../agent/llm/catalog";
import { type LlmSettings, llmSettings, providerLlm, userProvidersAllowed } from "../../../agent/llm/config";
import { toProvider, userProviderOf } from "../../../d1/providers";
import type { TurnSettingsRead } from "../../../d1/user-settings";
import { guardedFetch, outboundPolicy } from "../../../outbound/policy";
import type { ModelRef } from "../../../protocol";

/**
 * The cap on one model response's bytes. The outbound policy's 4 MB suits a tool's answer, but a streamed
 * answer counts every SSE frame's envelope (a few hundred bytes per token on llama.cpp and vLLM), so a long
 * answer with its reasoning can pass 4 MB. The stream is parsed as it arrives, never held whole: the cap
 * only stops a server that never ends.
 */
export const MODEL_RESPONSE_BYTES = 64 * 1024 * 1024;

export async function turnModel(
  env: Env,
  loaded: Pick<TurnSettingsRead, "conversationModel" | "defaultModel" | "providers">,
): Promise<LlmSettings> {
  const operator = llmSettings(env);
  if (!userProvidersAllowed(env)) return operator;
  const choice = chooseModel(operator, loaded.providers.map(toProvider), [
    loaded.conversationModel,
    loaded.defaultModel,
  ]);
  if (choice.kind === "operator") return operator;
  const row = loaded.providers.find((p) => p.id === choice.provider.id);
  if (!row) return operator;
  // A key that no longer opens (SECRETS_KEY changed) is sent as none: the server's 401 then says
  // "check the key in Settings → Models", which is the fix.
  const provider = await userProviderOf(row, env.SECRETS_KEY).catch(() => ({ ...toUser(row), apiKey: undefined }));
  return providerLlm(env, provider, choice.model, modelFetch(env));
}

/** Whether the turn would be answered by the operator's model (which the user's quota counts), keys unopened. */
export function usesOperatorModel(
  env: Env,
  loaded: Pick<TurnSettingsRead, "conversationModel" | "defaultModel" | "providers">,
): boolean {
  if (!userProvidersAllowed(env)) return true;
  const choice = chooseModel(llmSettings(env), loaded.providers.map(toProvider), [
    loaded.conversationModel,
    loaded.defaultModel,
  ]);
  return choice.kind === "operator" || !loaded.providers.some((p) => p.id === choice.provider.id);
}

/** One guarded fetch per environment, so the provider model built on it is kept across turns (model.ts). */
const modelFetches = new WeakMap<Env, typeof fetch>();
function modelFetch(env: Env): typeof fetch {
  let fetch = modelFetches.get(env);
  if (!fetch) {
    fetch = guardedFetch({ ...outboundPolicy(env), maxResponseBytes: MODEL_RESPONSE_BYTES });
    modelFetches.set(env, fetch);
  }
  return fetch;
}

/** The ref that names a turn's model again (a subagent runs with its parent's). */
export const modelRef = (llm: LlmSettings): ModelRef => ({ provider_id: llm.providerId, model: llm.model });

const toUser = (row: TurnSettingsRead["providers"][number]) => ({
  id: row.id,
  name: row.name,
  baseUrl: row.baseUrl,
  style: row.style,
});
