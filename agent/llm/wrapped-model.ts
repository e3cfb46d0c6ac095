// A provider's model with its stream taken over (idle-timeout.ts, metered-model.ts): the same identity,
// doGenerate passed through, doStream the wrapper's.
import type { LanguageModelV3 } from "@ai-sdk/provider";

export function withStream(model: LanguageModelV3, doStream: LanguageModelV3["doStream"]): LanguageModelV3 {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    doStream,
  };
}
