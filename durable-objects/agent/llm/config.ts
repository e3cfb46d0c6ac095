// Which model answers: OpenAI-compatible when OPENAI_API_KEY is set, else the offline demo model.
export type ApiStyle = "chat" | "responses";
export type LlmSettings =
  | { provider: "demo"; model: "demo" }
  | {
      provider: "openai";
      model: string;
      apiKey: string;
      baseURL: string | undefined;
      style: ApiStyle;
      /** A stream that sends nothing for this long is given up on (idle-timeout.ts). */
      streamIdleMs: number;
    };

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
export const DEFAULT_STREAM_IDLE_SECONDS = 60;

export function llmSettings(env: Env): LlmSettings {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) return { provider: "demo", model: "demo" };
  return {
    provider: "openai",
    model: env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL,
    apiKey,
    baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
    style: env.OPENAI_API_STYLE?.trim() === "responses" ? "responses" : "chat",
    streamIdleMs: positiveSeconds(env.OPENAI_STREAM_IDLE_SECONDS, DEFAULT_STREAM_IDLE_SECONDS) * 1000,
  };
}

/** A number of seconds above zero (fractions allowed), else the default: a typo must not disable the timeout. */
function positiveSeconds(value: string | undefined, fallback: number): number {
  const seconds = Number(value?.trim() || Number.NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : fallback;
}

/** What /api/health and `hello` show: never the key. */
export const publicModelInfo = (s: LlmSettings) => ({ provider: s.provider, model: s.model });
