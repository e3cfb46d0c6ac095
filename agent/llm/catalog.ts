// The models a user can pick (GET /api/models) and which one a ref names: the operator's model first, then
// each of the user's providers' models. Pure, shared by the routes (a ref must be one the user has) and the
// conversation object (which model answers a turn: the conversation's, else the user's default, else the
// operator's; a ref whose provider or model is gone falls through to the next).
import {
  type AvailableModel,
  DEFAULT_PROVIDER_ID,
  type ModelRef,
  type Provider,
  type ProviderModel,
} from "../../protocol";
import { defaultMaxOutputTokens, type LlmSettings } from "./config";

/** The operator's model as a ref. */
export const operatorRef = (operator: LlmSettings): ModelRef => ({
  provider_id: DEFAULT_PROVIDER_ID,
  model: operator.model,
});

export function availableModels(operator: LlmSettings, providers: Provider[]): AvailableModel[] {
  const own: AvailableModel = {
    provider_id: DEFAULT_PROVIDER_ID,
    provider_name: operator.providerName,
    model: operator.model,
    ...(operator.provider === "openai" ? { style: operator.style } : {}),
    context_window: operator.contextWindow,
    max_output_tokens: operator.maxOutputTokens,
    ...(operator.prices ? { prices: operator.prices } : {}),
    ...(operator.provider === "demo" ? { demo: true } : {}),
    ...(operator.imageInput ? { image_input: true } : {}),
  };
  return [
    own,
    ...providers.flatMap((p) =>
      p.models.map(
        (m): AvailableModel => ({
          provider_id: p.id,
          provider_name: p.name,
          model: m.id,
          style: p.style,
          context_window: m.context_window,
          max_output_tokens: m.max_output_tokens ?? defaultMaxOutputTokens(m.context_window),
          ...(m.prices ? { prices: m.prices } : {}),
          ...(m.image_input ? { image_input: true } : {}),
        }),
      ),
    ),
  ];
}

/** What a ref names: the operator's model, or one of the user's providers and its model. */
export type ModelChoice =
  | { kind: "operator"; ref: ModelRef }
  | { kind: "provider"; ref: ModelRef; provider: Provider; model: ProviderModel };

/** The model a ref names, or undefined when the user has no such provider or model. */
export function findModel(
  operator: LlmSettings,
  providers: Provider[],
  ref: ModelRef | null | undefined,
): ModelChoice | undefined {
  if (!ref) return undefined;
  if (ref.provider_id === DEFAULT_PROVIDER_ID)
    return ref.model === operator.model ? { kind: "operator", ref: operatorRef(operator) } : undefined;
  const provider = providers.find((p) => p.id === ref.provider_id);
  const model = provider?.models.find((m) => m.id === ref.model);
  return provider && model
    ? { kind: "provider", ref: { provider_id: provider.id, model: model.id }, provider, model }
    : undefined;
}

/** The first ref the user still has (a conversation's, then their default), else the operator's model. */
export function chooseModel(
  operator: LlmSettings,
  providers: Provider[],
  refs: (ModelRef | null | undefined)[],
): ModelChoice {
  for (const ref of refs) {
    const found = findModel(operator, providers, ref);
    if (found) return found;
  }
  return { kind: "operator", ref: operatorRef(operator) };
}
