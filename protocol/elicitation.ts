// MCP elicitation (issue 40): a user's MCP server, in the middle of a tool call, asks the user for values
// (form mode) or to open a link (URL mode). The call waits like a question: a card in every tab, the
// turn's clock paused, a deadline (the question timeout). What the card shows is already defused and
// cut to size by the Worker; the server's own JSON Schema never reaches the page.
import { z } from "zod";

/** Longest message shown on a card; a server's longer text is cut. */
export const MAX_ELICITATION_MESSAGE_CHARS = 2_000;
/** At most this many fields on one form; a request with more is declined. */
export const MAX_ELICITATION_FIELDS = 20;
/** A text field's value is at most this long, whatever the server allows. */
export const MAX_ELICITATION_TEXT_CHARS = 4_000;

/** One choice of a single or multiple choice field. */
export const ElicitationOptionSchema = z.object({ value: z.string(), label: z.string() });

/** A form field as the card shows it: one of the spec's primitive types, its default filled in. */
export const ElicitationFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string().optional(),
  kind: z.enum(["text", "number", "integer", "boolean", "choice", "choices"]),
  required: z.boolean(),
  /** text: the spec's string formats. */
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  options: z.array(ElicitationOptionSchema).optional(),
  /** number/integer: the value's bounds; text: its length's; choices: how many may be picked. */
  min: z.number().optional(),
  max: z.number().optional(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
});
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;

/** A server's request waiting for the user, as `hello` and `elicitation_request` carry it. */
export const PendingElicitationSchema = z.object({
  elicitation_id: z.string(),
  /** The tool call it came in (its `tool_start` already sent). */
  call_id: z.string(),
  /** The MCP server as the user named it. */
  server: z.string(),
  step: z.number(),
  mode: z.enum(["form", "url"]),
  message: z.string(),
  /** form: the fields to fill. */
  fields: z.array(ElicitationFieldSchema).optional(),
  /** url: the page to open (https, or http to loopback where loopback is allowed). */
  url: z.string().optional(),
  /** When it is cancelled if nobody answers (ISO): the question timeout. */
  deadline: z.string(),
});
export type PendingElicitation = z.infer<typeof PendingElicitationSchema>;

export const ElicitationActionSchema = z.enum(["accept", "decline", "cancel"]);
export type ElicitationAction = z.infer<typeof ElicitationActionSchema>;

const FieldValueSchema = z.union([
  z.string().max(MAX_ELICITATION_TEXT_CHARS),
  z.number(),
  z.boolean(),
  z.array(z.string().max(200)).max(100),
]);
export type ElicitationValue = z.infer<typeof FieldValueSchema>;

/**
 * The user's answer. `content` (accept, form mode) holds the fields' values by name; a field left out
 * takes its default. URL mode's accept means the user agreed to open the link.
 */
export const ElicitationResponseFrameSchema = z.strictObject({
  type: z.literal("elicitation_response"),
  elicitation_id: z.string().min(1).max(200),
  action: ElicitationActionSchema,
  content: z.record(z.string().max(200), FieldValueSchema).optional(),
});
export type ElicitationResponseFrame = z.infer<typeof ElicitationResponseFrameSchema>;

/** How a request ended: the user's action, or `timed_out` at its deadline, or `cancelled` by a Stop. */
export const ElicitationOutcomeSchema = z.enum(["accept", "decline", "cancel", "timed_out", "stopped"]);
export type ElicitationOutcome = z.infer<typeof ElicitationOutcomeSchema>;

/** What the chat keeps of an exchange, on the call's `tool` message: shown in words afterwards. */
export const ElicitationRecordSchema = z.object({
  server: z.string(),
  mode: z.enum(["form", "url"]),
  message: z.string(),
  outcome: ElicitationOutcomeSchema,
  /** accept, form mode: the values sent, by the fields' labels. */
  answers: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  url: z.string().optional(),
});
export type ElicitationRecord = z.infer<typeof ElicitationRecordSchema>;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why one value does not fit its field, in words for the card; undefined when it fits. */
function valueProblem(field: ElicitationField, value: ElicitationValue): string | undefined {
  const { min, max } = field;
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be yes or no";
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (min !== undefined && value < min) return `must be at least ${min}`;
      if (max !== undefined && value > max) return `must be at most ${max}`;
      return undefined;
    case "choice":
      return typeof value === "string" && field.options?.some((o) => o.value === value)
        ? undefined
        : "must be one of the choices";
    case "choices":
      if (!Array.isArray(value) || !value.every((v) => field.options?.some((o) => o.value === v)))
        return "must be among the choices";
      if (min !== undefined && value.length < min) return `pick at least ${min}`;
      if (max !== undefined && value.length > max) return `pick at most ${max}`;
      return undefined;
    case "text":
      if (typeof value !== "string") return "must be text";
      if (min !== undefined && value.length < min) return `must be at least ${min} characters`;
      if (max !== undefined && value.length > max) return `must be at most ${max} characters`;
      if (field.format === "email" && !EMAIL.test(value)) return "must be an email address";
      if (field.format === "date" && !DATE.test(value)) return "must be a date (YYYY-MM-DD)";
      if ((field.format === "uri" || field.format === "date-time") && !value.trim()) return "must not be empty";
      return undefined;
  }
}

/**
 * Checks an accepted form's values against its fields: every name known, every value of its kind and
 * within bounds, every required field given (or defaulted). The first problem, by field, or undefined.
 */
export function checkElicitationAnswer(
  fields: readonly ElicitationField[],
  content: Readonly<Record<string, ElicitationValue>>,
): { field: string; message: string } | undefined {
  for (const name of Object.keys(content))
    if (!fields.some((f) => f.name === name)) return { field: name, message: "is not a field of this form" };
  for (const field of fields) {
    const value = content[field.name] ?? field.default;
    if (value === undefined) {
      if (field.required) return { field: field.name, message: `${field.label} is required` };
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) return { field: field.name, message: `${field.label} ${problem}` };
  }
  return undefined;
}
