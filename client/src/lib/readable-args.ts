// A tool call's arguments as a person reads them on an approval card: one row per argument, its name
// in words ("due_date" → "Due date") and its value as text (a string as written, a number or boolean
// as such, anything nested as indented JSON). Always text: the card never renders HTML from arguments.

export type ArgRow = { name: string; value: string; multiline: boolean };

const MAX_VALUE_CHARS = 4000;

/** `due_date`, `dueDate` → "Due date". */
export function argName(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]?.toUpperCase() + words.slice(1) : key;
}

function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "—";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const clipped = (text: string) =>
  text.length > MAX_VALUE_CHARS
    ? `${text.slice(0, MAX_VALUE_CHARS)}… (${text.length - MAX_VALUE_CHARS} more characters)`
    : text;

export function readableArgs(args: unknown): ArgRow[] {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    if (args === undefined) return [];
    const value = clipped(valueText(args));
    return [{ name: "Arguments", value, multiline: value.includes("\n") }];
  }
  return Object.entries(args as Record<string, unknown>).map(([key, raw]) => {
    const value = clipped(valueText(raw));
    return { name: argName(key), value, multiline: value.includes("\n") || typeof raw === "object" };
  });
}

/**
 * A file tool's arguments as rows, the file named as the result names it ("report.pdf" rather than the
 * id the model may have given).
 */
export function fileToolArgs(args: unknown, result: unknown): ArgRow[] {
  const named = (result as { file?: { name?: unknown } } | null | undefined)?.file?.name;
  if (typeof named !== "string" || args === null || typeof args !== "object" || !("file" in args))
    return readableArgs(args);
  return readableArgs({ ...(args as Record<string, unknown>), file: named });
}
