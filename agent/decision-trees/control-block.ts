// Lenient parsing of the JSON control block a reason/observe reply ends with (seed 003): fenced or
// bare, single quotes, trailing commas and Python booleans tolerated; a missing or broken block is
// simply no control (the reply is then free text).
import { z } from "zod";

export const ReasonControlSchema = z.object({
  plan: z.string().optional(),
  tools_to_consider: z.array(z.string()).optional(),
  finish: z.boolean().optional(),
  final_answer: z.string().optional(),
});
export const ObserveControlSchema = z.object({
  observation: z.string().optional(),
  should_continue: z.boolean().optional(),
  final_answer: z.string().optional(),
});

export interface ControlBlock {
  /** The reply without its control block, for display and history. */
  prose: string;
  control: Record<string, unknown> | undefined;
}

const FENCED = /```(?:json)?\s*(\{[\s\S]*?\})\s*```/gi;

export function extractControlBlock(text: string): ControlBlock {
  const fenced = [...text.matchAll(FENCED)].at(-1);
  if (fenced?.[1] !== undefined) {
    const control = parseLenient(fenced[1]);
    if (control)
      return { prose: (text.slice(0, fenced.index) + text.slice(fenced.index + fenced[0].length)).trim(), control };
  }
  const start = lastTopLevelObjectStart(text);
  if (start !== undefined) {
    const control = parseLenient(text.slice(start));
    if (control) return { prose: text.slice(0, start).trim(), control };
  }
  return { prose: text.trim(), control: undefined };
}

function lastTopLevelObjectStart(text: string): number | undefined {
  const end = text.lastIndexOf("}");
  if (end < 0) return undefined;
  let depth = 0;
  for (let i = end; i >= 0; i--) {
    if (text[i] === "}") depth++;
    else if (text[i] === "{" && --depth === 0) return text.slice(end + 1).trim() ? undefined : i;
  }
  return undefined;
}

function parseLenient(raw: string): Record<string, unknown> | undefined {
  const relaxed = raw
    .replace(/,\s*([}\]])/g, "$1")
    .replace(/\bTrue\b/g, "true")
    .replace(/\bFalse\b/g, "false")
    .replace(/\bNone\b/g, "null");
  // Single quotes last: turning every '…' into "…" would break apostrophes inside double-quoted text.
  const attempts = [raw, relaxed, relaxed.replace(/'([^'\\]*)'/g, '"$1"')];
  for (const attempt of attempts) {
    try {
      const value: unknown = JSON.parse(attempt);
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // try the next, more forgiving reading
    }
  }
  return undefined;
}
