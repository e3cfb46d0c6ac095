// zod at the HTTP boundary: bodies and queries are parsed here or refused with 400 and `fields`.
// Every JSON body goes through readJson, so one policy holds for all of them: the bytes must be
// UTF-8, no string or key may hold a lone surrogate, and an unknown field is refused by name
// rather than silently dropped (a mistyped field name must not look like success).
import type { Context } from "hono";
import { z } from "zod";
import { fieldErrors, firstFieldError, illFormedTextField, NOT_UNICODE } from "../protocol";
import { invalid } from "./errors";
import { readBody } from "./request-body";

const MAX_BODY_BYTES = 256 * 1024;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const bytes = await readBody(c, MAX_BODY_BYTES, "Request body is too large");
  const raw = parseJson(decodeUtf8(bytes));
  const badText = illFormedTextField(raw);
  if (badText) throw invalidFields({ [badText]: NOT_UNICODE });
  return parseWith(refuseUnknownFields(schema), raw);
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw invalidFields(fieldErrors(result.error));
  return result.data;
}

/** Invalid bytes would otherwise be decoded to U+FFFD: altered, not refused. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid("Request body is not valid UTF-8");
  }
}

function parseJson(text: string): unknown {
  try {
    return text.length ? JSON.parse(text) : {};
  } catch {
    throw invalid("Request body is not valid JSON");
  }
}

/** The strict copy of each body schema, made once rather than on every request. */
const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

/** Request bodies are flat objects; a strict copy of the schema names every key it does not know. */
function refuseUnknownFields<S extends z.ZodType>(schema: S): S {
  if (!(schema instanceof z.ZodObject)) return schema;
  let strict = strictCopies.get(schema);
  if (!strict) {
    strict = schema.strict();
    strictCopies.set(schema, strict);
  }
  // The strict copy keeps the shape and refinements, so its output type is the schema's own.
  return strict as unknown as S;
}

const invalidFields = (fields: Record<string, string>) => invalid(firstFieldError(fields, "body"), fields);
