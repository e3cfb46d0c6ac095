// Which model answers: OpenAI-compatible when OPENAI_API_KEY is set, else the offline demo model.
export type ApiStyle = "chat" | "responses";
export type LlmSettings =
  | { provider: "demo"; model: "demo" }
  | { provider: "openai"; model: string; apiKey: string; baseURL: string | undefined; style: ApiStyle };

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export function llmSettings(env: Env): LlmSettings {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return { provider: "demo", model: "demo" };
  return {
    provider: "openai",
    model: env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    apiKey,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    style: env.OPENAI_API_STYLE?.trim() === "responses" ? "responses" : "chat",
  };
}

/** What /api/health and `hello` show: never the key. */
export const publicModelInfo = (s: LlmSettings) => ({ provider: s.provider, model: s.model });
