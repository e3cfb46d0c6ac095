// MCP elicitation seen from the agent: a server's `elicitation/create` request, made in the middle of a
// tool call, becomes a card the user answers (protocol/elicitation.ts), and the user's answer becomes
// the server's result. Everything the server wrote (message, titles, descriptions, choices) is defused
// and cut to size here, before the page or the model sees it; its JSON Schema is reduced to the spec's
// primitive fields, so nothing of it runs on either side. A URL is offered only where the Worker's own
// outbound rule would fetch it (https to a public host; loopback only where allowed), never javascript:,
// file:, data: or a private address.
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { type OutboundPolicy, refusedUrl } from "../../outbound/policy";
import {
  type ElicitationField,
  type ElicitationOutcome,
  type ElicitationRecord,
  type ElicitationValue,
  MAX_ELICITATION_FIELDS,
  MAX_ELICITATION_MESSAGE_CHARS,
  type PendingElicitation,
} from "../../protocol";
import { safeEnd } from "../context/model-messages";
import { neutralizeReminders } from "../system-items/forgery";

/** What a card shows, before the host gives it an id, a step and a deadline. */
export type ElicitationAsk = Pick<PendingElicitation, "server" | "mode" | "message" | "fields" | "url">;

/** The user's answer, or how the wait ended without one. */
export interface ElicitationReply {
  outcome: ElicitationOutcome;
  /** accept, form mode: the values by field name, checked against the fields (checkElicitationAnswer). */
  content?: Record<string, ElicitationValue>;
}

type Params = ElicitRequest["params"];
type Property = Record<string, unknown>;

const MAX_LABEL_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 500;
const MAX_OPTIONS = 100;

/** A server's text as the page and the model may see it: defused, at most `max` characters. */
function said(text: unknown, max: number): string {
  const clean = neutralizeReminders(typeof text === "string" ? text : "").trim();
  return clean.length > max ? `${clean.slice(0, safeEnd(clean, max - 1))}…` : clean;
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** `[{const, title}]` or a plain `enum` (with the older `enumNames`) as choices. */
function optionsOf(values: unknown, titled: unknown, names?: unknown): ElicitationField["options"] {
  if (Array.isArray(titled))
    return titled
      .filter((o): o is { const: string; title?: string } => typeof o?.const === "string")
      .slice(0, MAX_OPTIONS)
      .map((o) => ({ value: o.const, label: said(o.title ?? o.const, MAX_LABEL_CHARS) }));
  if (!Array.isArray(values)) return undefined;
  const labels = Array.isArray(names) ? names : [];
  return values
    .filter((v): v is string => typeof v === "string")
    .slice(0, MAX_OPTIONS)
    .map((v, i) => ({ value: v, label: said(typeof labels[i] === "string" ? labels[i] : v, MAX_LABEL_CHARS) }));
}

/** One property of the requested schema as a field, or undefined when it is none of the spec's kinds. */
function fieldOf(name: string, p: Property, required: boolean): ElicitationField | undefined {
  const base = {
    name,
    label: said(p.title ?? name, MAX_LABEL_CHARS) || name,
    ...(str(p.description) ? { description: said(p.description, MAX_DESCRIPTION_CHARS) } : {}),
    required,
  };
  const bounds = (min: unknown, max: unknown) => ({
    ...(num(min) !== undefined ? { min: num(min) } : {}),
    ...(num(max) !== undefined ? { max: num(max) } : {}),
  });
  switch (p.type) {
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof p.default === "boolean" ? { default: p.default } : {}) };
    case "number":
    case "integer":
      return {
        ...base,
        kind: p.type,
        ...bounds(p.minimum, p.maximum),
        ...(num(p.default) !== undefined ? { default: num(p.default) } : {}),
      };
    case "array": {
      const items = (p.items ?? {}) as Property;
      const options = optionsOf(items.enum, items.anyOf);
      if (!options?.length) return undefined;
      const picked = Array.isArray(p.default) ? p.default.filter((d) => options.some((o) => o.value === d)) : undefined;
      return {
        ...base,
        kind: "choices",
        options,
        ...bounds(p.minItems, p.maxItems),
        ...(picked ? { default: picked } : {}),
      };
    }
    case "string": {
      const options = optionsOf(p.enum, p.oneOf, p.enumNames);
      const fallback = str(p.default);
      if (options?.length)
        return {
          ...base,
          kind: "choice",
          options,
          ...(fallback && options.some((o) => o.value === fallback) ? { default: fallback } : {}),
        };
      const format = ["email", "uri", "date", "date-time"].includes(str(p.format) ?? "")
        ? { format: p.format as ElicitationField["format"] }
        : {};
      return {
        ...base,
        kind: "text",
        ...format,
        ...bounds(p.minLength, p.maxLength),
        ...(fallback !== undefined ? { default: fallback } : {}),
      };
    }
    default:
      return undefined;
  }
}

/**
 * The card for a server's request, or why it is declined without asking (the user is never shown a
 * request the page could not render honestly).
 */
export function askOf(server: string, params: Params, policy: OutboundPolicy): ElicitationAsk | { declined: string } {
  const message = said(params.message, MAX_ELICITATION_MESSAGE_CHARS);
  if (params.mode === "url") {
    const url = str(params.url) ?? "";
    const refused = refusedUrl(url, policy);
    if (refused) return { declined: `the link it asked to open was refused (${refused})` };
    return { server, mode: "url", message, url: new URL(url).href };
  }
  const schema = (params.requestedSchema ?? {}) as { properties?: Record<string, Property>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length > MAX_ELICITATION_FIELDS)
    return { declined: `it asked for ${entries.length} fields; at most ${MAX_ELICITATION_FIELDS}` };
  const fields: ElicitationField[] = [];
  for (const [name, p] of entries) {
    const field = fieldOf(name, p, required.has(name));
    if (!field) return { declined: `its field ${said(name, 60)} is not one of the kinds a form can ask for` };
    fields.push(field);
  }
  return { server, mode: "form", message, fields };
}

/** The server's result: the answer with every default filled in; anything but an answer is a cancel. */
export function resultOf(ask: ElicitationAsk, reply: ElicitationReply): ElicitResult {
  if (reply.outcome === "decline") return { action: "decline" };
  if (reply.outcome !== "accept") return { action: "cancel" };
  if (ask.mode === "url") return { action: "accept" };
  return { action: "accept", content: withDefaults(ask.fields ?? [], reply.content ?? {}) };
}

export function withDefaults(
  fields: readonly ElicitationField[],
  content: Record<string, ElicitationValue>,
): Record<string, ElicitationValue> {
  const filled: Record<string, ElicitationValue> = {};
  for (const field of fields) {
    const value = content[field.name] ?? field.default;
    if (value !== undefined) filled[field.name] = value;
  }
  return filled;
}

/** A value as the chat shows it afterwards: a choice by its label, a switch as yes or no. */
function shown(field: ElicitationField, value: ElicitationValue): string {
  const label = (v: string) => field.options?.find((o) => o.value === v)?.label ?? v;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.map(label).join(", ") || "none";
  return typeof value === "string" ? label(value) : String(value);
}

/** What the call's `tool` message keeps of the exchange. */
export function recordOf(ask: ElicitationAsk, reply: ElicitationReply): ElicitationRecord {
  const record: ElicitationRecord = {
    server: ask.server,
    mode: ask.mode,
    message: ask.message,
    outcome: reply.outcome,
  };
  if (ask.url) record.url = ask.url;
  if (reply.outcome === "accept" && ask.mode === "form") {
    const filled = withDefaults(ask.fields ?? [], reply.content ?? {});
    record.answers = (ask.fields ?? [])
      .filter((f) => filled[f.name] !== undefined)
      .map((f) => ({ label: f.label, value: shown(f, filled[f.name] as ElicitationValue) }));
  }
  return record;
}
