// A provider's models as the user edits them: every input kept as typed (text), so a wrong value stays on
// screen to be fixed, and read back into the PATCH's `models` by the protocol's own schema. Errors are
// keyed as the server's 400 keys them ("models.1.context_window", "models.0.prices.input"), so both
// land by the same input.
import {
  fieldErrors,
  MAX_PROVIDER_MODELS,
  ModelNameSchema,
  type Prices,
  type ProviderModel,
  ProviderPatchSchema,
  prefilledWindow,
} from "../../../../../protocol";

export const PRICE_NAMES = ["input", "cached_input", "output"] as const;
export type PriceName = (typeof PRICE_NAMES)[number];

export type ModelDraft = {
  /** The row's own key: stable while rows are added and removed above it. */
  key: number;
  id: string;
  window: string;
  outputCap: string;
  prices: Record<PriceName, string>;
  sendReasoning: boolean;
  /** The model reads images (`image_input`): an attached image reaches it as an image, else as its name. */
  readsImages: boolean;
};

let nextKey = 0;
const text = (value: number | undefined) => (value === undefined ? "" : String(value));

export function toDraft(model: ProviderModel): ModelDraft {
  return {
    key: ++nextKey,
    id: model.id,
    window: text(model.context_window),
    outputCap: text(model.max_output_tokens),
    prices: {
      input: text(model.prices?.input),
      cached_input: text(model.prices?.cached_input),
      output: text(model.prices?.output),
    },
    sendReasoning: model.send_reasoning ?? false,
    readsImages: model.image_input ?? false,
  };
}

/** A model added by name (typed, or one a test found): the window the server gave, else the guess; whether
 * it reads images, as the server said. */
export const newDraft = (id: string, window?: number, imageInput?: boolean): ModelDraft =>
  toDraft({ id, context_window: prefilledWindow(window), ...(imageInput ? { image_input: true } : {}) });

/** Whether two lists say the same, whatever their keys. */
export function sameDrafts(a: readonly ModelDraft[], b: readonly ModelDraft[]): boolean {
  const plain = (rows: readonly ModelDraft[]) => JSON.stringify(rows.map(({ key: _, ...row }) => row));
  return plain(a) === plain(b);
}

/** Why a typed name cannot be added, or null. */
export function nameProblem(name: string, rows: readonly ModelDraft[]): string | null {
  const check = ModelNameSchema.safeParse(name);
  if (!check.success) return check.error.issues[0]?.message ?? "not a model name";
  if (rows.some((row) => row.id === check.data)) return `${check.data} is in the list already`;
  if (rows.length >= MAX_PROVIDER_MODELS) return `at most ${MAX_PROVIDER_MODELS} models: remove one first`;
  return null;
}

/** The `fields` keys the rows show by their inputs; any other ("models": "each model once") goes on the save line. */
export function shownFields(rows: readonly ModelDraft[]): string[] {
  const names = ["id", "context_window", "max_output_tokens", "prices", ...PRICE_NAMES.map((p) => `prices.${p}`)];
  return rows.flatMap((_, index) => names.map((name) => `models.${index}.${name}`));
}

/** Tokens as typed: "128000", "128,000" or "128 000". Empty: undefined (the schema says what is missing). */
function tokens(typed: string): number | undefined {
  const plain = typed.trim().replace(/[\s,_]/g, "");
  return plain ? Number(plain) : undefined;
}

/** A price per million tokens: "0.15", or "0,15" as many keyboards type it. */
function price(typed: string): number | undefined {
  const plain = typed.trim().replace(",", ".");
  const value = plain ? Number(plain) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** All three prices, or none; each a number of 0 or more. Problems go into `fields`. */
function readPrices(typed: ModelDraft["prices"], at: string, fields: Record<string, string>): Prices | undefined {
  if (PRICE_NAMES.every((name) => typed[name].trim() === "")) return undefined;
  const prices: Prices = { input: 0, cached_input: 0, output: 0 };
  for (const name of PRICE_NAMES) {
    const value = price(typed[name]);
    if (value !== undefined) prices[name] = value;
    else
      fields[`${at}.prices.${name}`] =
        typed[name].trim() === "" ? "give all three prices, or none" : "a number of 0 or more, such as 0.15";
  }
  return prices;
}

/** The drafts as the PATCH's `models`, checked as the server will check them; else the errors by field. */
export function readDrafts(
  rows: readonly ModelDraft[],
): { ok: true; models: ProviderModel[] } | { ok: false; fields: Record<string, string> } {
  const own: Record<string, string> = {};
  // Absent fields are left undefined: the JSON body drops them.
  const models = rows.map((row, index) => ({
    id: row.id,
    context_window: tokens(row.window),
    max_output_tokens: tokens(row.outputCap),
    prices: readPrices(row.prices, `models.${index}`, own),
    send_reasoning: row.sendReasoning || undefined,
    image_input: row.readsImages || undefined,
  }));
  const check = ProviderPatchSchema.safeParse({ models });
  const fields = { ...(check.success ? {} : fieldErrors(check.error)), ...own };
  if (!check.success || Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, models: check.data.models ?? [] };
}
