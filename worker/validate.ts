// zod at the HTTP boundary: bodies and queries are parsed here or refused with 400 and `fields`.
import type { Context } from "hono";
import type { z } from "zod";
import { fieldErrors } from "../protocol";
import { ApiError, invalid } from "./errors";

const MAX_BODY_BYTES = 256 * 1024;

export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError(413, "too_large", "Request body is too large");
  let raw: unknown;
  try {
    raw = text.length ? JSON.parse(text) : {};
  } catch {
    throw invalid("Request body is not valid JSON");
  }
  return parseWith(schema, raw);
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const fields = fieldErrors(result.error);
    const first = Object.entries(fields)[0];
    throw invalid(first ? `${first[0] === "_" ? "body" : first[0]}: ${first[1]}` : "Invalid input", fields);
  }
  return result.data;
}
