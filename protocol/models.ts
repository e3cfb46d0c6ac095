// Model providers and the models a user can pick (docs/protocol.md "Models"). The operator's provider
// (`OPENAI_*`, or the offline demo model) is `default` and everyone has it; a user adds their own
// OpenAI-compatible endpoints, each with its key sealed at rest and never answered.
import { z } from "zod";
import { PricesSchema } from "./usage";

/** How the Worker talks to a provider: Chat Completions (any compatible server) or the Responses API. */
export const ApiStyleSchema = z.enum(["chat", "responses"]);
export type ApiStyle = z.infer<typeof ApiStyleSchema>;

/** The operator's provider: `OPENAI_*`, or the demo model without a key. */
export const DEFAULT_PROVIDER_ID = "default";
/** A user may keep this many providers, each with this many models. */
export const MAX_PROVIDERS = 10;
export const MAX_PROVIDER_MODELS = 50;
/** Below this no conversation fits (system prompt, tool declarations, a summary and a message). */
export const MIN_CONTEXT_WINDOW = 4_000;
export const MAX_CONTEXT_WINDOW = 10_000_000;
export const MIN_OUTPUT_TOKENS = 16;
/** The window a model starts with where its server does not say one: a guess the user should correct. */
export const GUESSED_CONTEXT_WINDOW = 8192;

/** A model's window as it is prefilled from what its server said (else the guess), within the bounds. */
export const prefilledWindow = (said: number | undefined) =>
  Math.min(MAX_CONTEXT_WINDOW, Math.max(MIN_CONTEXT_WINDOW, said ?? GUESSED_CONTEXT_WINDOW));

const wholeTokens = (label: string, min: number, max: number) => {
  const message = `${label} must be a whole number from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** What the server calls a model ("gpt-4o-mini", "qwen/qwen3-8b"): sent as is. */
export const ModelNameSchema = z
  .string()
  .trim()
  .min(1, "a model name is required")
  .max(200, "a model name of at most 200 characters");

/** One model of a provider, as the user set it up (prefilled from what the server says). */
export const ProviderModelSchema = z
  .object({
    id: ModelNameSchema,
    /** Tokens: no request to the model is larger; compaction keeps the context under it. */
    context_window: wholeTokens("Context window", MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW),
    /** The cap on one answer (max_tokens / max_output_tokens); absent: the default for the window. */
    max_output_tokens: wholeTokens("Output cap", MIN_OUTPUT_TOKENS, 1_000_000).optional(),
    /** Per million tokens, in the user's currency; absent: no cost is shown. */
    prices: PricesSchema.optional(),
    /**
     * Send the model's reasoning back with its own earlier steps (Chat Completions `reasoning_content`).
     * Off by default: most servers ignore or refuse it; some (DeepSeek's thinking mode with tools) need it.
     */
    send_reasoning: z.boolean().optional(),
    /** The model reads images (image parts); absent: it does not, and images reach it as their names. */
    image_input: z.boolean().optional(),
  })
  .strict();
export type ProviderModel = z.infer<typeof ProviderModelSchema>;

const ProviderNameSchema = z.string().trim().min(1, "a name is required").max(60, "a name of at most 60 characters");
const BaseUrlSchema = z
  .string()
  .trim()
  .url("a URL such as https://api.example.com/v1")
  .max(2000, "a URL of at most 2,000 characters");
const ApiKeySchema = z
  .string()
  .trim()
  .min(1, "an API key, or leave it out")
  .max(4000, "a key of at most 4,000 characters");
const ModelListSchema = z
  .array(ProviderModelSchema)
  .max(MAX_PROVIDER_MODELS, `at most ${MAX_PROVIDER_MODELS} models`)
  .refine((models) => new Set(models.map((m) => m.id)).size === models.length, "each model once");

/** A provider as the API answers it: never its key. */
export const ProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  base_url: z.string(),
  style: ApiStyleSchema,
  /** Whether a key is stored (it is never answered). */
  has_key: z.boolean(),
  models: z.array(ProviderModelSchema),
  /** When the last test ran, and what it found wrong (null: it passed). */
  checked_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Provider = z.infer<typeof ProviderSchema>;

/** POST /api/providers. `style` absent: detected with one test call (else Chat Completions). */
export const ProviderCreateSchema = z
  .object({
    name: ProviderNameSchema,
    base_url: BaseUrlSchema,
    api_key: ApiKeySchema.optional(),
    style: ApiStyleSchema.optional(),
    models: ModelListSchema.optional(),
  })
  .strict();
export type ProviderCreate = z.infer<typeof ProviderCreateSchema>;

/** PATCH /api/providers/:id: any of the fields; `api_key: null` removes the key. */
export const ProviderPatchSchema = z
  .object({
    name: ProviderNameSchema.optional(),
    base_url: BaseUrlSchema.optional(),
    api_key: ApiKeySchema.nullable().optional(),
    style: ApiStyleSchema.optional(),
    models: ModelListSchema.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "give at least one field to change" });
export type ProviderPatch = z.infer<typeof ProviderPatchSchema>;

/** A model the server listed (GET /models), with what it said of it. */
export const DiscoveredModelSchema = z.object({
  id: z.string(),
  context_window: z.number().int().optional(),
  /** The server said the model reads images (`input_modalities`, `capabilities: ["vision"]`…). */
  image_input: z.boolean().optional(),
});
export type DiscoveredModel = z.infer<typeof DiscoveredModelSchema>;

/** POST /api/providers/:id/test: one call to the server; `ok` false says what to fix in `error`. */
export const ProviderTestSchema = z.object({
  ok: z.boolean(),
  /** The style the server answered in (the provider is saved with it when it was not chosen). */
  style: ApiStyleSchema.optional(),
  /** What GET /models listed; empty where the server has no such route. */
  models: z.array(DiscoveredModelSchema),
  error: z.string().optional(),
  provider: ProviderSchema,
});
export type ProviderTest = z.infer<typeof ProviderTestSchema>;

/** Which model: a provider (`default`, or one of the user's) and the model's name there. */
export const ModelRefSchema = z.object({ provider_id: z.string().min(1).max(64), model: ModelNameSchema }).strict();
export type ModelRef = z.infer<typeof ModelRefSchema>;

/** GET /api/models: every model the user can pick, the default provider's first; and their default. */
export const AvailableModelSchema = z.object({
  provider_id: z.string(),
  provider_name: z.string(),
  model: z.string(),
  style: ApiStyleSchema.optional(),
  context_window: z.number(),
  max_output_tokens: z.number(),
  prices: PricesSchema.optional(),
  /** The demo model (offline, scripted): shown as such in the picker. */
  demo: z.boolean().optional(),
  /** The model reads images: a client says before sending when it would get only an image's name. */
  image_input: z.boolean().optional(),
});
export type AvailableModel = z.infer<typeof AvailableModelSchema>;
export const ModelListResponseSchema = z.object({
  models: z.array(AvailableModelSchema),
  /** The user's default model (Settings → Models), else the operator's. */
  default: ModelRefSchema,
  /** False when the operator turned user providers off (USER_PROVIDERS=off). */
  user_providers: z.boolean(),
});
export type ModelListResponse = z.infer<typeof ModelListResponseSchema>;

/** PUT /api/models/default. */
export const DefaultModelSchema = z.object({ model: ModelRefSchema }).strict();
